package dev.strata.it.history;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One client operation as the fault-injection harness saw it: what was asked, when, and what came
 * back. Fields a kind or outcome does not use are {@code null} (objects) or {@code 0} (numbers).
 *
 * <p>Times are {@link System#nanoTime()} of the harness JVM, where every client runs, so the
 * times of different clients compare. The completion time is recorded for every outcome: for
 * {@link Outcome#UNKNOWN} it is when the client gave up, which bounds nothing (the operation may
 * still take effect later).
 *
 * @param id             unique within a history
 * @param client         the logical client (one operation at a time per client)
 * @param key            the key; for {@code RANGE} the start key, inclusive
 * @param rangeEnd       {@code RANGE}: the end key, exclusive; otherwise {@code null}
 * @param value          {@code PUT}: the value written; {@code CAS}: the new value; otherwise {@code null}
 * @param expected       {@code CAS}: the value the key must hold for the swap, {@code null} = the key must be absent
 * @param consistency    {@code GET} and {@code RANGE}; {@code null} for writes
 * @param node           the node a {@code SERIALIZABLE} read was sent to; {@code 0} otherwise
 * @param readValue      {@code GET} that is {@code OK}: the value seen, {@code null} = absent
 * @param rangeResult    {@code RANGE} that is {@code OK}: every present key in the range and its
 *                       value, sorted by key; otherwise {@code null}
 * @param casSucceeded   {@code CAS} that is {@code OK}: whether the compare held and the put ran; otherwise {@code null}
 * @param headerRevision {@code OK}: the response header's revision; for a write, the write's own
 *                       revision (its Raft index)
 * @param modRevision    {@code GET} that is {@code OK} and saw a value: that key's mod revision; otherwise {@code 0}
 * @param error          {@code FAIL} and {@code UNKNOWN}: {@code "CODE: message"}; otherwise {@code null}
 * @throws IllegalArgumentException when a field the kind and outcome need is missing, or the
 *                                  operation completed before it was invoked
 */
public record Operation(
        long id, int client, OpKind kind,
        String key,
        String rangeEnd,
        String value,
        String expected,
        ReadConsistency consistency,
        long node,
        long invokedNanos, long completedNanos,
        Outcome outcome,
        String readValue,
        Map<String, String> rangeResult,
        Boolean casSucceeded,
        long headerRevision,
        long modRevision,
        String error) {

    public Operation {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(outcome, "outcome");
        if (completedNanos < invokedNanos) {
            throw invalid(id, "completed at " + completedNanos + " before it was invoked at " + invokedNanos);
        }
        if (kind == OpKind.RANGE && rangeEnd == null) {
            throw invalid(id, "a RANGE needs rangeEnd");
        }
        if ((kind == OpKind.PUT || kind == OpKind.CAS) && value == null) {
            throw invalid(id, "a " + kind + " needs the value it writes");
        }
        if (isRead(kind) && consistency == null) {
            throw invalid(id, "a " + kind + " needs its consistency");
        }
        if (consistency == ReadConsistency.SERIALIZABLE && node == 0) {
            throw invalid(id, "a SERIALIZABLE read needs the node it was sent to");
        }
        if (outcome == Outcome.OK && kind == OpKind.RANGE && rangeResult == null) {
            throw invalid(id, "an OK RANGE needs its rangeResult (empty when nothing was found)");
        }
        if (outcome == Outcome.OK && kind == OpKind.CAS && casSucceeded == null) {
            throw invalid(id, "an OK CAS needs casSucceeded");
        }
        if (rangeResult != null) {
            rangeResult = Collections.unmodifiableSortedMap(new TreeMap<>(rangeResult));
        }
    }

    /** Whether this is a read that only {@link ReadConsistency#SERIALIZABLE} guarantees cover. */
    public boolean isSerializableRead() {
        return consistency == ReadConsistency.SERIALIZABLE && isRead(kind);
    }

    /** Operation {@code #id}, its client, kind, arguments, outcome and result on one line, without times. */
    @Override
    public String toString() {
        return OperationText.describe(this, null);
    }

    private static boolean isRead(OpKind kind) {
        return kind == OpKind.GET || kind == OpKind.RANGE;
    }

    private static IllegalArgumentException invalid(long id, String why) {
        return new IllegalArgumentException("operation " + id + ": " + why);
    }
}
