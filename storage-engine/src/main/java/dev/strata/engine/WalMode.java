package dev.strata.engine;

/** How the engine's write-ahead log protects writes that are not yet in a flushed table. */
public enum WalMode {
    /**
     * Every write is fsynced before it returns. Concurrent writers share one fsync (group
     * commit), so throughput grows with concurrency. A write that returned survives a crash
     * of the process or the machine.
     */
    SYNC,
    /**
     * Writes go to the log without fsync: they survive a crash of the process, not of the
     * machine. The log is fsynced on {@link Engine#close()} and {@link Engine#flush()}.
     */
    NO_SYNC,
    /**
     * No log. Writes not yet flushed into a table are lost on a crash; use this when another
     * log (such as a Raft log) already holds them, and recover with
     * {@link Engine#appliedMarker()}. {@link Engine#close()} flushes the memtable.
     */
    DISABLED
}
