package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a benchmark that changed storage cost on disk, measured by the harness the same way for
 * every engine ({@code docs/benchmarks.md} defines each figure).
 *
 * @param userBytes           key and value bytes the benchmark wrote
 * @param bytesWritten        bytes the process wrote from the benchmark's start until its background
 *                            work settled ({@link ProcessCounters#bytesWritten()}); -1 when unknown
 * @param storageBytesWritten the same span's {@link ProcessCounters#storageBytesWritten()}; -1 when unknown
 * @param directoryBytes      real size of the database directory afterwards
 * @param liveBytes           the engine's estimate of its live data, computed the same way for every engine
 *                            (the size of its tables after a full compaction, by RocksDB's
 *                            {@code estimate-live-data-size}, plus value-log or blob bytes not counted as garbage)
 * @param logicalLiveBytes    live keys x (key size + value size); -1 when the key space is too large to track
 */
record DiskUse(long userBytes, long bytesWritten, long storageBytesWritten, long directoryBytes, long liveBytes,
               long logicalLiveBytes) {

    /** Bytes written per user byte written; null for a benchmark that wrote no user bytes or when unknown. */
    @JsonProperty
    Double writeAmplification() {
        return userBytes == 0 || bytesWritten < 0 ? null : (double) bytesWritten / userBytes;
    }

    /** Directory bytes per live byte as the engine stores it; null when nothing is live. */
    @JsonProperty
    Double spaceAmplification() {
        return liveBytes <= 0 ? null : (double) directoryBytes / liveBytes;
    }

    /** Directory bytes per logical live byte: below 1 when compression saves more than garbage costs. */
    @JsonProperty
    Double logicalSpaceAmplification() {
        return logicalLiveBytes <= 0 ? null : (double) directoryBytes / logicalLiveBytes;
    }
}
