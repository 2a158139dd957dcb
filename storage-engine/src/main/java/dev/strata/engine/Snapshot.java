package dev.strata.engine;

/**
 * A consistent read view of the engine at the moment {@link Engine#snapshot()} returned.
 * Later writes are invisible through it. While it is open, compaction keeps every version of
 * a key that it can see, so close it when done. Thread-safe.
 */
public interface Snapshot extends AutoCloseable {
    /** The sequence number of the newest write this snapshot sees. */
    long sequence();

    /** The value of {@code key} as of this snapshot, or null when absent. */
    byte[] get(byte[] key);

    /** Scans {@code [fromInclusive, toExclusive)} as of this snapshot; null bounds are open. */
    KeyValueIterator scan(byte[] fromInclusive, byte[] toExclusive);

    /** Releases the snapshot. Idempotent. */
    @Override
    void close();
}
