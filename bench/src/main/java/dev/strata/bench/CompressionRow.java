package dev.strata.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * One line of the compression study's table: a (size, block size, policy) case, with medians
 * over its rounds and read throughput relative to no compression on the same size and block
 * size.
 *
 * @param shape             files and stored bytes per level, from the last round
 * @param getVsNone         random-get throughput over the none policy's; null when none did not run
 * @param scanVsNone        scan throughput over the none policy's; null when none did not run
 */
record CompressionRow(long keys, int blockSize, String policy, int rounds, String shape, int deepestLevel,
                      double spaceSaving, long storedBytes, long rawBytes, double writeMbPerSecond,
                      double writeCpuSeconds, double getsPerSecond, double getCpuMicros, double scanMbPerSecond,
                      Double getVsNone, Double scanVsNone) {

    /** Groups runs by case, in the order the cases first ran, and takes medians over their rounds. */
    static List<CompressionRow> summarise(List<CompressionRun> runs) {
        Map<String, List<CompressionRun>> byCase = runs.stream().collect(Collectors.groupingBy(
                r -> r.keys() + "/" + r.blockSize() + "/" + r.policy(), LinkedHashMap::new, Collectors.toList()));
        List<CompressionRow> rows = new ArrayList<>();
        for (List<CompressionRun> group : byCase.values()) {
            CompressionRun last = group.getLast();
            rows.add(new CompressionRow(last.keys(), last.blockSize(), last.policy(), group.size(), shape(last),
                    last.deepestLevel(), median(group, CompressionRun::spaceSaving),
                    Math.round(median(group, CompressionRun::storedBytes)), Math.round(median(group, CompressionRun::rawBytes)),
                    median(group, CompressionRun::writeMbPerSecond), median(group, CompressionRun::writeCpuSeconds),
                    median(group, r -> r.readRandom().opsPerSecond()), median(group, r -> r.readRandom().cpuMicrosPerOp()),
                    median(group, r -> r.readSeq().mbPerSecond()), null, null));
        }
        List<CompressionRow> withRatios = new ArrayList<>();
        for (CompressionRow row : rows) {
            CompressionRow none = rows.stream()
                    .filter(r -> r.keys == row.keys && r.blockSize == row.blockSize
                            && r.policy.equals(StudyPolicy.NONE.label()))
                    .findFirst().orElse(null);
            withRatios.add(none == null ? row : row.relativeTo(none));
        }
        return withRatios;
    }

    private CompressionRow relativeTo(CompressionRow none) {
        return new CompressionRow(keys, blockSize, policy, rounds, shape, deepestLevel, spaceSaving, storedBytes, rawBytes,
                writeMbPerSecond, writeCpuSeconds, getsPerSecond, getCpuMicros, scanMbPerSecond,
                getsPerSecond / none.getsPerSecond, scanMbPerSecond / none.scanMbPerSecond);
    }

    /** Files and stored bytes per level, such as {@code L0 1:0.4M L1 8:7.9M L2 71:70.2M}. */
    private static String shape(CompressionRun run) {
        return run.levels().stream()
                .map(l -> String.format(Locale.ROOT, "L%d %d:%.1fM", l.level(), l.files(), l.storedBytes() / (double) (1 << 20)))
                .collect(Collectors.joining(" "));
    }

    private static double median(List<CompressionRun> runs, ToDoubleFunction<CompressionRun> figure) {
        return Comparison.median(runs.stream().map(figure::applyAsDouble).toList());
    }
}
