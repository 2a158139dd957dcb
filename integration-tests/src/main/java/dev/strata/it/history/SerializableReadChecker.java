package dev.strata.it.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * Checks the {@link ReadConsistency#SERIALIZABLE} reads of a history. Such a read is served from
 * one node's applied state without asking the leader, so it may be stale, but:
 * <ol>
 *   <li>it never reads the future: each value it returns was written by a {@code PUT} or
 *       {@code CAS} that may have taken effect (not {@code FAIL}, not a CAS whose compare failed)
 *       and was invoked before the read completed; absent is always possible (the initial state);</li>
 *   <li>a node never goes back: of two reads it served, one completing before the other was
 *       invoked, the later has a header revision no smaller, and, for a {@code GET} of the same
 *       key that found it, a mod revision no smaller;</li>
 *   <li>the revision is the write's: a {@code GET} that found a value with mod revision {@code m}
 *       whose write was acknowledged with revision {@code w} has {@code m == w}.</li>
 * </ol>
 * Only {@code OK} reads count. A {@code RANGE}'s values are checked like a {@code GET}'s; a range
 * carries no mod revisions.
 *
 * <p>Thread-safe: it holds no state. Deterministic.
 */
public final class SerializableReadChecker {
    private static final Comparator<Operation> BY_INVOCATION =
            Comparator.comparingLong(Operation::invokedNanos).thenComparingLong(Operation::id);
    private static final Comparator<Operation> BY_COMPLETION =
            Comparator.comparingLong(Operation::completedNanos).thenComparingLong(Operation::id);

    private SerializableReadChecker() {}

    /** Checks the serializable reads of {@code history} against its writes. */
    public static SerializableReadResult check(List<Operation> history) {
        List<Operation> reads = history.stream()
                .filter(op -> op.isSerializableRead() && op.outcome() == Outcome.OK)
                .sorted(BY_INVOCATION)
                .toList();
        Map<String, Map<String, List<Operation>>> writesByKeyAndValue = writesByKeyAndValue(history);
        List<SerializableAnomaly> anomalies = new ArrayList<>();
        for (Operation read : reads) {
            for (Map.Entry<String, String> seen : valuesSeen(read).entrySet()) {
                List<Operation> writes = writesByKeyAndValue
                        .getOrDefault(seen.getKey(), Map.of())
                        .getOrDefault(seen.getValue(), List.of());
                checkSource(read, seen.getKey(), seen.getValue(), writes, anomalies);
            }
            if (read.kind() == OpKind.GET && read.readValue() != null && read.modRevision() != 0) {
                List<Operation> writes = writesByKeyAndValue
                        .getOrDefault(read.key(), Map.of())
                        .getOrDefault(read.readValue(), List.of());
                checkModRevision(read, writes, anomalies);
            }
        }
        Map<Long, List<Operation>> byNode = reads.stream()
                .collect(Collectors.groupingBy(Operation::node, TreeMap::new, Collectors.toList()));
        for (List<Operation> nodeReads : byNode.values()) {
            checkMonotonic(nodeReads, Operation::headerRevision, null, anomalies);
            Map<String, List<Operation>> byKey = nodeReads.stream()
                    .filter(op -> op.kind() == OpKind.GET && op.readValue() != null && op.modRevision() != 0)
                    .collect(Collectors.groupingBy(Operation::key, TreeMap::new, Collectors.toList()));
            byKey.forEach((key, keyReads) -> checkMonotonic(keyReads, Operation::modRevision, key, anomalies));
        }
        anomalies.sort(Comparator.comparing(SerializableAnomaly::kind)
                .thenComparing(a -> a.operations().getLast(), BY_INVOCATION));
        return new SerializableReadResult(reads.size(), anomalies);
    }

    /**
     * Every write of the history by key and value, FAIL ones included: they are not sources, but
     * a report naming them saves the reader a search.
     */
    private static Map<String, Map<String, List<Operation>>> writesByKeyAndValue(List<Operation> history) {
        Map<String, Map<String, List<Operation>>> writes = new HashMap<>();
        for (Operation op : history) {
            if (op.kind() == OpKind.PUT || op.kind() == OpKind.CAS) {
                writes.computeIfAbsent(op.key(), k -> new HashMap<>())
                        .computeIfAbsent(op.value(), v -> new ArrayList<>())
                        .add(op);
            }
        }
        return writes;
    }

    /** The present keys {@code read} returned, with their values. */
    private static Map<String, String> valuesSeen(Operation read) {
        if (read.kind() == OpKind.RANGE) {
            return read.rangeResult();
        }
        return read.readValue() == null ? Map.of() : Map.of(read.key(), read.readValue());
    }

    /** Whether {@code write} may have left its value: not FAIL, not a CAS known to have failed its compare. */
    private static boolean mayHaveWritten(Operation write) {
        return write.outcome() != Outcome.FAIL
                && !(write.outcome() == Outcome.OK && write.kind() == OpKind.CAS && !write.casSucceeded());
    }

    private static void checkSource(Operation read, String key, String value, List<Operation> writes,
                                    List<SerializableAnomaly> anomalies) {
        List<Operation> sources = writes.stream().filter(SerializableReadChecker::mayHaveWritten).toList();
        if (sources.isEmpty()) {
            List<Operation> shown = new ArrayList<>(writes);
            shown.add(read);
            String why = writes.isEmpty() ? "no operation wrote it" : "its only writes certainly did not take effect";
            anomalies.add(new SerializableAnomaly(SerializableAnomaly.Kind.UNWRITTEN_VALUE, key, read.node(), shown,
                    "read " + OperationText.quote(value) + ", but " + why));
        } else if (sources.stream().noneMatch(w -> w.invokedNanos() < read.completedNanos())) {
            Operation first = sources.stream().min(BY_INVOCATION).orElseThrow();
            anomalies.add(new SerializableAnomaly(SerializableAnomaly.Kind.FUTURE_READ, key, read.node(),
                    List.of(first, read),
                    "read " + OperationText.quote(value) + " before any write of it was invoked"));
        }
    }

    private static void checkModRevision(Operation read, List<Operation> writes, List<SerializableAnomaly> anomalies) {
        List<Operation> sources = writes.stream().filter(SerializableReadChecker::mayHaveWritten).toList();
        // With one acknowledged write the revision is known; with an unknown one too (values are
        // unique, so this does not happen in the harness's histories) either may be the source.
        if (sources.isEmpty() || sources.stream().anyMatch(w -> w.outcome() != Outcome.OK)
                || sources.stream().anyMatch(w -> w.headerRevision() == read.modRevision())) {
            return;
        }
        Operation write = sources.getFirst();
        anomalies.add(new SerializableAnomaly(SerializableAnomaly.Kind.MOD_REVISION_MISMATCH, read.key(), read.node(),
                List.of(write, read),
                "read " + OperationText.quote(read.readValue()) + " with mod revision " + read.modRevision()
                        + ", but its write was acknowledged with revision " + write.headerRevision()));
    }

    /**
     * Flags each read of {@code reads} (one node's, all of one key when {@code key} is set) whose
     * {@code revision} is smaller than that of a read which completed before it was invoked.
     * A sweep: reads in invocation order, against the largest revision among those completed by then.
     */
    private static void checkMonotonic(List<Operation> reads, ToLongFunction<Operation> revision, String key,
                                       List<SerializableAnomaly> anomalies) {
        List<Operation> byCompletion = reads.stream().sorted(BY_COMPLETION).toList();
        Operation highest = null;
        int completed = 0;
        for (Operation read : reads.stream().sorted(BY_INVOCATION).toList()) {
            while (completed < byCompletion.size() && byCompletion.get(completed).completedNanos() < read.invokedNanos()) {
                Operation done = byCompletion.get(completed++);
                if (highest == null || revision.applyAsLong(done) > revision.applyAsLong(highest)) {
                    highest = done;
                }
            }
            if (highest != null && revision.applyAsLong(highest) > revision.applyAsLong(read)) {
                String what = key == null ? "header revision " : "mod revision ";
                anomalies.add(new SerializableAnomaly(
                        key == null ? SerializableAnomaly.Kind.REVISION_REGRESSED : SerializableAnomaly.Kind.MOD_REVISION_REGRESSED,
                        key, read.node(), List.of(highest, read),
                        "answered with " + what + revision.applyAsLong(read) + " after answering with "
                                + revision.applyAsLong(highest) + " to #" + highest.id()
                                + ", which completed before this read was invoked"));
            }
        }
    }
}
