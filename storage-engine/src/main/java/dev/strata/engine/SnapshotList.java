package dev.strata.engine;

import java.util.TreeMap;

/**
 * The sequence numbers of open snapshots, so compaction keeps what they can see. Thread-safe.
 */
final class SnapshotList {
    private final TreeMap<Long, Integer> counts = new TreeMap<>();

    synchronized void add(long sequence) {
        counts.merge(sequence, 1, Integer::sum);
    }

    synchronized void remove(long sequence) {
        counts.computeIfPresent(sequence, (s, n) -> n == 1 ? null : n - 1);
    }

    /** The oldest open snapshot's sequence, or {@code ifNone} when none is open. */
    synchronized long oldest(long ifNone) {
        return counts.isEmpty() ? ifNone : counts.firstKey();
    }

    synchronized int size() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }
}
