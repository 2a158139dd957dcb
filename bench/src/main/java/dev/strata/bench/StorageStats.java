package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * What an engine has written and holds, in terms every engine can report, plus the engine's own
 * statistics object for the JSON report.
 *
 * @param writeAmplification bytes written to disk (log, flushes, compactions) per user byte written
 * @param spaceAmplification bytes on disk per byte of live data
 * @param totalBytes         size of every file the engine holds
 * @param liveBytes          estimated size of the data after a full compaction
 * @param userBytesWritten   key and value bytes the benchmark wrote
 * @param flushes            memtable flushes so far
 * @param compactions        compactions so far
 * @param stallMicros        time writers spent delayed or stopped by the engine
 * @param levels             per level, shallowest first; empty levels left out
 * @param engineStats        the engine's own statistics, serialised as they are
 */
record StorageStats(
        double writeAmplification,
        double spaceAmplification,
        long totalBytes,
        long liveBytes,
        long userBytesWritten,
        long flushes,
        long compactions,
        long stallMicros,
        List<Level> levels,
        Object engineStats) {

    StorageStats {
        levels = List.copyOf(levels);
    }

    /**
     * One level of the tree.
     *
     * @param storedBytes bytes of its files on disk
     * @param rawBytes    bytes of its blocks before compression
     */
    record Level(int level, int files, long storedBytes, long rawBytes) {
        /** raw / stored; 1 for an empty level. */
        @JsonProperty
        public double compressionRatio() {
            return storedBytes == 0 ? 1 : (double) rawBytes / storedBytes;
        }
    }
}
