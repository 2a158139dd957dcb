package dev.strata.engine;

/**
 * What {@link Engine#open} does with damage it finds in the write-ahead logs it replays.
 * RocksDB's {@code WALRecoveryMode} makes the same choice.
 */
public enum WalRecovery {
    /**
     * A torn tail (the last record of the newest log, cut short by a crash) is dropped; damage
     * followed by valid records is reported as corruption and the engine does not open, since
     * skipping it would silently lose writes that returned. The choice when the log is the only
     * copy of the writes (RocksDB's {@code kTolerateCorruptedTailRecords}).
     */
    STRICT,
    /**
     * Replays every record before the first damage and drops the rest, wherever the damage is,
     * so the engine opens holding a prefix of its writes. Only for a log that another log backs,
     * such as the Raft log under Strata's server: with {@link WalMode#NO_SYNC} a machine crash
     * can leave any unsynced page unwritten, and the writes after the damage are replayed from
     * the other log, after {@link Engine#appliedMarker()} (RocksDB's {@code kPointInTimeRecovery}).
     */
    POINT_IN_TIME
}
