package dev.strata.bench;

import java.util.List;
import java.util.Map;

/**
 * One engine's run of the benchmarks, in a fresh directory.
 *
 * @param engine        the target's name
 * @param round         which repetition, from 1
 * @param db            the database directory
 * @param engineOptions every option the engine resolved (for RocksDB, every option set)
 * @param results       one per benchmark, in the order they ran
 * @param finalStorage  the engine's storage figures after the last benchmark
 */
record RunReport(String engine, int round, String db, Map<String, Object> engineOptions,
                 List<BenchmarkResult> results, StorageStats finalStorage) {}
