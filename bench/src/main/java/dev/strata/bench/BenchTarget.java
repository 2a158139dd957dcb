package dev.strata.bench;

import java.util.Map;

/**
 * One open storage engine as the workloads see it: the few operations they time, and the
 * figures they report. Workloads reach an engine only through this interface, so the same
 * workload can run on Strata and on other engines for comparison.
 *
 * <p>Thread safety: {@link #put}, {@link #get} and {@link #scan} may be called from many
 * threads at once; a {@link Cursor} belongs to one thread.
 */
interface BenchTarget extends AutoCloseable {
    /** A short lower-case name for reports, such as {@code strata}. */
    String name();

    /** The options the engine resolved when it opened, by name, for the report. */
    Map<String, Object> settings();

    void put(byte[] key, byte[] value);

    /** The value of {@code key}, or null when absent. */
    byte[] get(byte[] key);

    /** A cursor over the keys from {@code fromInclusive} on; null starts at the first key. */
    Cursor scan(byte[] fromInclusive);

    /** Writes the memtable to a table file and waits for it. */
    void flush();

    /** Compacts every level down to the bottom one and waits for it. */
    void compact();

    /**
     * Waits until no flush or compaction is running or due, so the files on disk are those the
     * engine settles on; garbage collection the engine would do by itself counts as due.
     */
    void waitForBackgroundWork();

    StorageStats stats();

    @Override
    void close();

    /** A forward cursor; position it with {@link #next()} before reading an entry. Not thread-safe. */
    interface Cursor extends AutoCloseable {
        /** Moves to the next entry (the first one on the first call); false at the end. */
        boolean next();

        byte[] key();

        byte[] value();

        @Override
        void close();
    }
}
