package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.strata.cli.bench.LatencySummary;

/**
 * The figures of one benchmark run.
 *
 * @param name          the benchmark, as on the command line
 * @param threads       threads that ran it
 * @param ops           ops done by all threads
 * @param found         for reads, ops that found their key; null for writes
 * @param bytes         key and value bytes written or read
 * @param seconds       wall time from the first thread's start to the last one's end
 * @param latency       per-op latency
 * @param settleSeconds time the engine's background work took to settle after the benchmark;
 *                      null when not waited for
 * @param cpuSeconds    process CPU time, every thread, from the start until settled
 * @param disk          for benchmarks that change storage, what they cost on disk; null otherwise
 * @param storageAfter  the engine's own storage figures right after, for benchmarks that change
 *                      storage; null otherwise
 * @param writesBeside  for readwhilewriting, the puts its writer thread made while the reads ran;
 *                      null for every other benchmark
 */
record BenchmarkResult(String name, int threads, long ops, Long found, long bytes, double seconds,
                       LatencySummary latency, Double settleSeconds, double cpuSeconds, DiskUse disk,
                       StorageStats storageAfter, Long writesBeside) {
    private static final double MB = 1 << 20;

    /** Wall time per op, in microseconds, as db_bench counts it: elapsed time x threads / ops. */
    @JsonProperty
    double microsPerOp() {
        return ops == 0 ? 0 : seconds * 1e6 * threads / ops;
    }

    @JsonProperty
    double opsPerSecond() {
        return seconds == 0 ? 0 : ops / seconds;
    }

    /** Key and value bytes per second, in MiB (db_bench's "MB"). */
    @JsonProperty
    double mbPerSecond() {
        return seconds == 0 ? 0 : bytes / MB / seconds;
    }

    /** The writer's puts per second of the reads' wall time, for readwhilewriting; null otherwise. */
    @JsonProperty
    Double writesBesidePerSecond() {
        return writesBeside == null || seconds == 0 ? null : writesBeside / seconds;
    }

    /** CPU time per op in microseconds, background work until settled included. */
    @JsonProperty
    double cpuMicrosPerOp() {
        return ops == 0 ? 0 : cpuSeconds * 1e6 / ops;
    }
}
