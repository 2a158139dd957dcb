package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * One case of the compression study: a fresh Strata database with one policy, size and block
 * size, filled, flushed and settled, then read.
 *
 * @param policy         the policy's name
 * @param keys           the key space, and the puts of the fill
 * @param blockSize      uncompressed data block size
 * @param round          which repetition, from 1
 * @param fill           fillrandom, settled
 * @param flush          the flush of what the fill left in the memtable, settled
 * @param readRandom     random gets
 * @param readSeq        one scan of everything
 * @param levels         the tables per level once settled: the shape the data took
 * @param directoryBytes the database directory's size once settled
 */
record CompressionRun(String policy, long keys, int blockSize, int round, BenchmarkResult fill, BenchmarkResult flush,
                      BenchmarkResult readRandom, BenchmarkResult readSeq, List<StorageStats.Level> levels,
                      long directoryBytes) {
    private static final double MB = 1 << 20;

    CompressionRun {
        levels = List.copyOf(levels);
    }

    /** Bytes of every table file. */
    @JsonProperty
    long storedBytes() {
        return levels.stream().mapToLong(StorageStats.Level::storedBytes).sum();
    }

    /** Bytes of every table's data blocks before compression. */
    @JsonProperty
    long rawBytes() {
        return levels.stream().mapToLong(StorageStats.Level::rawBytes).sum();
    }

    /** 1 - stored / raw: the fraction of the data compression saved (below 0 when index and filters outweigh it). */
    @JsonProperty
    double spaceSaving() {
        return rawBytes() == 0 ? 0 : 1 - (double) storedBytes() / rawBytes();
    }

    /** Wall time of the fill and the flush, each with the background work it caused. */
    @JsonProperty
    double writeSeconds() {
        return fill.seconds() + settled(fill) + flush.seconds() + settled(flush);
    }

    /** Key and value bytes of the fill over {@link #writeSeconds()}, in MiB: the rate the engine absorbs writes at, compaction included. */
    @JsonProperty
    double writeMbPerSecond() {
        return fill.bytes() / MB / writeSeconds();
    }

    /** Process CPU time of the fill and the flush, background work included. */
    @JsonProperty
    double writeCpuSeconds() {
        return fill.cpuSeconds() + flush.cpuSeconds();
    }

    /** The deepest level holding tables. */
    @JsonProperty
    int deepestLevel() {
        return levels.stream().mapToInt(StorageStats.Level::level).max().orElse(0);
    }

    private static double settled(BenchmarkResult r) {
        return r.settleSeconds() == null ? 0 : r.settleSeconds();
    }
}
