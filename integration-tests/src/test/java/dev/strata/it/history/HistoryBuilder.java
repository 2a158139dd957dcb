package dev.strata.it.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds hand-written histories for tests: times in milliseconds, ids in order of creation,
 * acknowledged writes numbered with increasing revisions as a Raft log would.
 */
final class HistoryBuilder {
    private final List<Operation> ops = new ArrayList<>();
    private long nextId = 1;
    private long revision;

    static long ms(long millis) {
        return millis * 1_000_000;
    }

    List<Operation> ops() {
        return List.copyOf(ops);
    }

    /** The revision the last acknowledged write got. */
    long revision() {
        return revision;
    }

    Operation put(int client, String key, String value, long fromMs, long toMs) {
        return write(client, OpKind.PUT, key, value, null, fromMs, toMs, Outcome.OK, null);
    }

    Operation putUnknown(int client, String key, String value, long fromMs, long toMs) {
        return write(client, OpKind.PUT, key, value, null, fromMs, toMs, Outcome.UNKNOWN, null);
    }

    Operation putFailed(int client, String key, String value, long fromMs, long toMs) {
        return write(client, OpKind.PUT, key, value, null, fromMs, toMs, Outcome.FAIL, null);
    }

    Operation delete(int client, String key, long fromMs, long toMs) {
        return write(client, OpKind.DELETE, key, null, null, fromMs, toMs, Outcome.OK, null);
    }

    Operation cas(int client, String key, String expected, String value, long fromMs, long toMs, boolean swapped) {
        return write(client, OpKind.CAS, key, value, expected, fromMs, toMs, Outcome.OK, swapped);
    }

    Operation casUnknown(int client, String key, String expected, String value, long fromMs, long toMs) {
        return write(client, OpKind.CAS, key, value, expected, fromMs, toMs, Outcome.UNKNOWN, null);
    }

    /** A linearizable GET that saw {@code seen} ({@code null} = absent). */
    Operation get(int client, String key, long fromMs, long toMs, String seen) {
        return add(new Operation(nextId++, client, OpKind.GET, key, null, null, null, ReadConsistency.LINEARIZABLE, 0,
                ms(fromMs), ms(toMs), Outcome.OK, seen, null, null, revision, 0, null));
    }

    /** A linearizable RANGE over {@code [from, to)} that saw {@code seen}. */
    Operation range(int client, String from, String to, long fromMs, long toMs, Map<String, String> seen) {
        return add(new Operation(nextId++, client, OpKind.RANGE, from, to, null, null, ReadConsistency.LINEARIZABLE, 0,
                ms(fromMs), ms(toMs), Outcome.OK, null, seen, null, revision, 0, null));
    }

    /** A serializable GET served by {@code node}. */
    Operation serializableGet(int client, long node, String key, long fromMs, long toMs, String seen,
                              long headerRevision, long modRevision) {
        return add(new Operation(nextId++, client, OpKind.GET, key, null, null, null, ReadConsistency.SERIALIZABLE, node,
                ms(fromMs), ms(toMs), Outcome.OK, seen, null, null, headerRevision, modRevision, null));
    }

    /** A serializable RANGE over {@code [from, to)} served by {@code node}. */
    Operation serializableRange(int client, long node, String from, String to, long fromMs, long toMs,
                                Map<String, String> seen, long headerRevision) {
        return add(new Operation(nextId++, client, OpKind.RANGE, from, to, null, null, ReadConsistency.SERIALIZABLE, node,
                ms(fromMs), ms(toMs), Outcome.OK, null, seen, null, headerRevision, 0, null));
    }

    Operation add(Operation op) {
        ops.add(op);
        return op;
    }

    private Operation write(int client, OpKind kind, String key, String value, String expected, long fromMs, long toMs,
                            Outcome outcome, Boolean swapped) {
        long rev = outcome == Outcome.OK ? ++revision : 0;
        String error = switch (outcome) {
            case OK -> null;
            case FAIL -> "UNAVAILABLE: no leader";
            case UNKNOWN -> "DEADLINE_EXCEEDED: deadline exceeded";
        };
        return add(new Operation(nextId++, client, kind, key, null, value, expected, null, 0,
                ms(fromMs), ms(toMs), outcome, null, null, swapped, rev, 0, error));
    }
}
