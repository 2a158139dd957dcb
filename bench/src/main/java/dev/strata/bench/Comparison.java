package dev.strata.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The runs of one {@code engine} command summarised per benchmark: each engine's medians over
 * the rounds and, when exactly two engines ran, the first one's figures over the second's.
 *
 * <p>A ratio is the median of the per-round ratios, each taken between the two runs of one
 * round, which ran one after the other: on a shared, noisy machine two neighbouring runs see
 * more alike conditions than two medians taken over the whole command.
 *
 * @param engines engine names in the order they ran within a round; ratios are engines[0] / engines[1]
 * @param rounds  rounds (repetitions) summarised
 * @param rows    one per benchmark, in the order they ran
 */
record Comparison(List<String> engines, int rounds, List<Row> rows) {

    /**
     * One benchmark's figures.
     *
     * @param ratios null unless exactly two engines ran
     */
    record Row(String benchmark, List<Figures> figures, Ratios ratios) {}

    /**
     * One engine's medians over the rounds of one benchmark. Disk figures are null for
     * benchmarks that leave storage alone.
     */
    record Figures(String engine, double opsPerSecond, double mbPerSecond, double p50Micros, double p99Micros,
                   double cpuMicrosPerOp, Double settleSeconds, Double writeAmplification, Double spaceAmplification,
                   Double logicalSpaceAmplification, Double directoryBytes) {}

    /**
     * engines[0] / engines[1], medians of the per-round ratios; a ratio whose figures are missing is null.
     *
     * @param throughputPerRound the ops/s ratio of each round, to see the spread
     */
    record Ratios(double throughput, double p99, double cpuPerOp, Double writeAmplification,
                  Double spaceAmplification, Double directoryBytes, List<Double> throughputPerRound) {}

    /** Summarises {@code runs}, which must all have run the same benchmarks. */
    static Comparison of(List<RunReport> runs) {
        List<String> engines = runs.stream().map(RunReport::engine).distinct().toList();
        int rounds = runs.stream().mapToInt(RunReport::round).max().orElse(0);
        List<String> benchmarks = runs.getFirst().results().stream().map(BenchmarkResult::name).toList();
        List<Row> rows = new ArrayList<>();
        for (int b = 0; b < benchmarks.size(); b++) {
            int index = b;
            List<Figures> figures = new ArrayList<>();
            List<List<BenchmarkResult>> perEngine = new ArrayList<>();
            for (String engine : engines) {
                List<BenchmarkResult> results = runs.stream().filter(r -> r.engine().equals(engine))
                        .map(r -> r.results().get(index)).toList();
                perEngine.add(results);
                figures.add(figures(engine, results));
            }
            Ratios ratios = engines.size() == 2 ? ratios(perEngine.get(0), perEngine.get(1)) : null;
            rows.add(new Row(benchmarks.get(b), figures, ratios));
        }
        return new Comparison(engines, rounds, rows);
    }

    private static Figures figures(String engine, List<BenchmarkResult> results) {
        return new Figures(engine,
                median(results, BenchmarkResult::opsPerSecond),
                median(results, BenchmarkResult::mbPerSecond),
                median(results, r -> r.latency().p50()),
                median(results, r -> r.latency().p99()),
                median(results, BenchmarkResult::cpuMicrosPerOp),
                median(results, BenchmarkResult::settleSeconds),
                median(results, r -> r.disk() == null ? null : r.disk().writeAmplification()),
                median(results, r -> r.disk() == null ? null : r.disk().spaceAmplification()),
                median(results, r -> r.disk() == null ? null : r.disk().logicalSpaceAmplification()),
                median(results, r -> r.disk() == null ? null : (double) r.disk().directoryBytes()));
    }

    /** Per-round ratios of {@code first} over {@code second}, paired by round. */
    private static Ratios ratios(List<BenchmarkResult> first, List<BenchmarkResult> second) {
        int rounds = Math.min(first.size(), second.size());
        List<Double> throughput = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Double> writeAmp = new ArrayList<>();
        List<Double> spaceAmp = new ArrayList<>();
        List<Double> directory = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            BenchmarkResult a = first.get(r);
            BenchmarkResult b = second.get(r);
            throughput.add(a.opsPerSecond() / b.opsPerSecond());
            p99.add(a.latency().p99() / b.latency().p99());
            cpu.add(a.cpuMicrosPerOp() / b.cpuMicrosPerOp());
            if (a.disk() != null && b.disk() != null) {
                writeAmp.add(ratio(a.disk().writeAmplification(), b.disk().writeAmplification()));
                spaceAmp.add(ratio(a.disk().spaceAmplification(), b.disk().spaceAmplification()));
                directory.add((double) a.disk().directoryBytes() / b.disk().directoryBytes());
            }
        }
        return new Ratios(median(throughput), median(p99), median(cpu), medianOrNull(writeAmp),
                medianOrNull(spaceAmp), medianOrNull(directory), List.copyOf(throughput));
    }

    private static Double ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }

    /** The median of a figure over results; null when any result lacks it. */
    private static Double median(List<BenchmarkResult> results, Function<BenchmarkResult, Double> figure) {
        List<Double> values = results.stream().map(figure).toList();
        return medianOrNull(values);
    }

    /** The median; null when there are no values or any is missing. */
    private static Double medianOrNull(List<Double> values) {
        return values.isEmpty() || values.stream().anyMatch(Objects::isNull) ? null : median(values);
    }

    /** The middle value, or the mean of the two middle ones. */
    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (sorted.length == 0) {
            throw new IllegalArgumentException("median of nothing");
        }
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
