package dev.strata.engine;

/**
 * Callbacks on the engine's background work, in the manner of RocksDB's {@code EventListener}.
 * They run on the background thread doing the work, which waits for them: keep them short. An
 * exception a callback throws is logged and does not fail the work.
 */
public interface EngineEventListener {
    /** Listens to nothing; the default. */
    EngineEventListener NONE = new EngineEventListener() {};

    /**
     * A flush or compaction finished a value-log file: its records are written and fsynced, and
     * the manifest edit that names it (the job's commit point) comes later; a crash before that
     * edit leaves the file an orphan that the next open removes. Like RocksDB's
     * {@code OnBlobFileCreated}.
     */
    default void onValueLogFileCreated(ValueLogFileCreated event) {}
}
