package dev.strata.bench;

import java.util.List;
import java.util.Map;

/**
 * What {@code strata-bench engine --json} writes: enough to compare two runs without the console
 * output next to it.
 *
 * @param startedAt     when the run started, ISO-8601
 * @param engine        the target's name
 * @param db            the database directory
 * @param benchmarks    the benchmarks in the order they ran
 * @param config        the engine settings the flags asked for (unset ones left out)
 * @param engineOptions every option the engine resolved
 * @param finalStorage  the engine's storage figures after the last benchmark
 */
record EngineReport(
        String command,
        String startedAt,
        MachineInfo machine,
        String engine,
        String db,
        List<String> benchmarks,
        Workload workload,
        TargetConfig config,
        Map<String, Object> engineOptions,
        List<BenchmarkResult> results,
        StorageStats finalStorage) {}
