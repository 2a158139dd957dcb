package dev.strata.bench;

/**
 * What the engine benchmarks do, resolved from the flags.
 *
 * @param num             distinct keys, numbered [0, num)
 * @param valueSize       bytes per value
 * @param compressibility fraction of each value that compresses away
 * @param reads           gets of readrandom and seeks of seekrandom
 * @param seekNexts       entries each seekrandom seek reads, at least 1
 * @param threads         threads running each benchmark; fills, readrandom and seekrandom share
 *                        their ops out among them, readseq scans everything in each thread
 * @param overwriteRounds overwrite puts this many times num keys, at least 1
 * @param seed            seed of every key and value drawn
 * @param writeRate       puts per second of readwhilewriting's writer; 0 for as fast as it can
 */
record Workload(long num, int valueSize, double compressibility, long reads, int seekNexts, int threads,
                int overwriteRounds, long seed, long writeRate) {}
