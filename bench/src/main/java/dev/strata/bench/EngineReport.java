package dev.strata.bench;

import dev.strata.cli.bench.MachineInfo;

import java.util.List;

/**
 * What {@code strata-bench engine --json} writes: enough to compare runs without the console
 * output next to it.
 *
 * @param startedAt  when the run started, ISO-8601
 * @param benchmarks the benchmarks in the order they ran
 * @param config     the engine settings the flags asked for (unset ones left out)
 * @param settle     whether background work was waited for after benchmarks that change storage
 * @param runs       every engine's runs, in the order they ran (engines alternate within a round)
 * @param comparison medians over the rounds and, for two engines, their ratios; null for a
 *                   single run
 */
record EngineReport(
        String command,
        String startedAt,
        MachineInfo machine,
        List<String> benchmarks,
        Workload workload,
        TargetConfig config,
        boolean settle,
        List<RunReport> runs,
        Comparison comparison) {}
