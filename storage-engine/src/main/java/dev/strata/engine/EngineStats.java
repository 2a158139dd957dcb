package dev.strata.engine;

import java.util.List;

/**
 * A point-in-time view of what the engine has done and holds. Byte counts are cumulative
 * since {@link Engine#open} unless they describe current contents.
 *
 * @param userBytesWritten        key and value bytes of accepted puts and deletes
 * @param walBytesWritten         bytes appended to write-ahead logs
 * @param walSyncs                log fsyncs; fewer than writes when group commit shares them
 * @param flushBytesWritten       table bytes written by memtable flushes
 * @param compactionBytesRead     table bytes read by compactions
 * @param compactionBytesWritten  table bytes written by compactions
 * @param valueLogBytesWritten    value-log bytes written by flushes and compactions (relocations included)
 * @param valueLogRelocatedBytes  value-log record bytes garbage collection moved out of files being emptied
 * @param valueLogRecompressedBytes of those, bytes of provisional records recompressed with the long-lived codec
 *                                (an adaptive compression policy's)
 * @param liveBytes               estimated size of the data after a full compaction, from real
 *                                table sizes: tables counted from the bottom level up, skipping
 *                                tables whose key range a deeper counted table already covers
 *                                (RocksDB's estimate-live-data-size), plus the value-log bytes
 *                                not counted as garbage
 * @param totalBytes              real size of every file in the data directory
 * @param levels                  per level: files and stored vs raw (uncompressed) bytes
 * @param flushes                 memtable flushes completed
 * @param compactions             compactions completed (trivial moves included)
 * @param gcCompactions           of those, compactions started to collect value-log garbage
 * @param stallSlowdowns          writes delayed by 1 ms because L0 or compaction debt passed its slowdown limit
 * @param stallStops              times writers waited for a flush or compaction to make room
 * @param stallMicros             total time writers spent delayed or stopped
 * @param writesStopped           true while writes are stopped right now
 * @param bloomUseful             table lookups a bloom filter answered "absent" without reading a block
 * @param bloomFalsePositives     table lookups a bloom filter passed that found no entry
 * @param blockCacheHits          data block reads served from the block cache
 * @param blockCacheMisses        data block reads that went to disk
 * @param blockCacheBytes         bytes the block cache holds now
 * @param memtableBytes           approximate bytes in the active and frozen memtables
 * @param immutableMemtables      frozen memtables waiting for flush
 * @param pendingCompactionBytes  estimated bytes compactions must rewrite to bring every level under target
 * @param lastSequence            sequence number of the newest visible write
 * @param valueLogs               per value-log file: size and exact garbage
 * @param checkpointsKept         checkpoints pinned on disk
 * @param deltasKept              intervals in the incremental chain
 * @param deltaBytes              bytes only the incremental chain still holds (compaction removed them from the tree)
 */
public record EngineStats(
        long userBytesWritten,
        long walBytesWritten,
        long walSyncs,
        long flushBytesWritten,
        long compactionBytesRead,
        long compactionBytesWritten,
        long valueLogBytesWritten,
        long valueLogRelocatedBytes,
        long valueLogRecompressedBytes,
        long liveBytes,
        long totalBytes,
        List<LevelStats> levels,
        long flushes,
        long compactions,
        long gcCompactions,
        long stallSlowdowns,
        long stallStops,
        long stallMicros,
        boolean writesStopped,
        long bloomUseful,
        long bloomFalsePositives,
        long blockCacheHits,
        long blockCacheMisses,
        long blockCacheBytes,
        long memtableBytes,
        int immutableMemtables,
        long pendingCompactionBytes,
        long lastSequence,
        List<ValueLogStats> valueLogs,
        int checkpointsKept,
        int deltasKept,
        long deltaBytes) {

    public EngineStats {
        levels = List.copyOf(levels);
        valueLogs = List.copyOf(valueLogs);
    }

    /** Bytes written to disk for every user byte: (WAL + flush + compaction + value log) / user; 0 before any write. */
    public double writeAmplification() {
        long disk = walBytesWritten + flushBytesWritten + compactionBytesWritten + valueLogBytesWritten;
        return userBytesWritten == 0 ? 0 : (double) disk / userBytesWritten;
    }

    /** Bytes on disk for every live byte: total / live; 0 when nothing is live. */
    public double spaceAmplification() {
        return liveBytes == 0 ? 0 : (double) totalBytes / liveBytes;
    }

    /** Bytes of the value-log files the current version lists. */
    public long valueLogBytes() {
        return valueLogs.stream().mapToLong(ValueLogStats::bytes).sum();
    }

    /** Garbage bytes in those files. */
    public long valueLogGarbageBytes() {
        return valueLogs.stream().mapToLong(ValueLogStats::garbageBytes).sum();
    }

    /** Bytes of provisional records in those files, waiting to be recompressed. */
    public long valueLogProvisionalBytes() {
        return valueLogs.stream().mapToLong(ValueLogStats::provisionalBytes).sum();
    }

    /**
     * One value-log file: its name, size, exact garbage, and the bytes of provisional records it
     * was written with (some may be garbage by now).
     */
    public record ValueLogStats(String file, long bytes, long garbageBytes, long provisionalBytes) {}

    /** Files, stored bytes and raw (uncompressed) bytes of one level. */
    public record LevelStats(int level, int files, long storedBytes, long rawBytes) {
        /** raw / stored; 1 for an empty or uncompressed level. */
        public double compressionRatio() {
            return storedBytes == 0 ? 1 : (double) rawBytes / storedBytes;
        }
    }
}
