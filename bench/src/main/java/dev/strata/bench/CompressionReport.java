package dev.strata.bench;

import dev.strata.cli.bench.MachineInfo;

import java.util.List;
import java.util.Map;

/**
 * What {@code strata-bench compression --json} writes.
 *
 * @param startedAt     when the study started, ISO-8601
 * @param engineOptions the options every case shares (block size and policy vary per case)
 * @param runs          every case of every round, in the order they ran
 * @param rows          the table: medians per case
 */
record CompressionReport(String command, String startedAt, MachineInfo machine, int valueSize, double compressibility,
                         long reads, long seed, Map<String, Object> engineOptions, List<CompressionRun> runs,
                         List<CompressionRow> rows) {}
