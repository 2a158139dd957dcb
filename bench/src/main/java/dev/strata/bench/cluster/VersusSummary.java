package dev.strata.bench.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The rounds of a comparison summarised per workload: each system's medians over the rounds and
 * the ratios Strata / etcd.
 *
 * <p>A ratio is the median of the per-round ratios, each between the two runs of one round,
 * which ran one right after the other: on a shared, noisy machine two neighbouring runs see more
 * alike conditions than two medians taken over the whole command. Failures are summed over the
 * rounds, never averaged away.
 */
record VersusSummary(int rounds, List<Row> rows) {
    /** One workload: Strata's figures, etcd's, and Strata / etcd. */
    record Row(String workload, Figures strata, Figures etcd, Ratios strataOverEtcd) {}

    /**
     * One system's figures for one workload: medians over its rounds (latency of successful
     * operations: null when a round had none), failures summed.
     *
     * @param opsPerSecondPerRound every round's throughput, in round order, to see the spread
     */
    record Figures(String system, int rounds, double opsPerSecond, Double p50Micros, Double p99Micros,
                   Double serverCpuMicrosPerOp, Double driverCpuMicrosPerOp, Double serverWrittenBytesPerOp,
                   Double deviceWrittenBytesPerOp, long failed, long timedOut, long notSent, List<Double> opsPerSecondPerRound) {}

    /**
     * Strata / etcd, each the median of the per-round ratios; null where a figure is missing or etcd's is 0.
     *
     * @param throughputPerRound every round's throughput ratio, in round order
     */
    record Ratios(Double throughput, List<Double> throughputPerRound, Double p50, Double p99, Double serverCpuPerOp,
                  Double serverWrittenBytesPerOp, Double deviceWrittenBytesPerOp) {}

    /**
     * Summarises {@code runs} (measured rounds only, round >= 1) of the systems {@code strata} and
     * {@code etcd}, one row per workload in {@code workloads}' order. Runs pair up by round.
     */
    static VersusSummary of(List<RunResult> runs, List<String> workloads) {
        int rounds = runs.stream().mapToInt(RunResult::round).max().orElse(0);
        List<Row> rows = new ArrayList<>();
        for (String w : workloads) {
            Map<Integer, RunResult> strata = byRound(runs, w, "strata");
            Map<Integer, RunResult> etcd = byRound(runs, w, "etcd");
            if (strata.isEmpty() && etcd.isEmpty()) {
                continue;
            }
            rows.add(new Row(w, figures("strata", strata), figures("etcd", etcd), ratios(strata, etcd)));
        }
        return new VersusSummary(rounds, rows);
    }

    private static Map<Integer, RunResult> byRound(List<RunResult> runs, String workload, String system) {
        return runs.stream().filter(r -> r.round() >= 1 && r.workload().equals(workload) && r.system().equals(system))
                .collect(Collectors.toMap(RunResult::round, r -> r, (a, b) -> b, java.util.TreeMap::new));
    }

    /** Medians of one system's rounds; null when it has none. */
    private static Figures figures(String system, Map<Integer, RunResult> rounds) {
        if (rounds.isEmpty()) {
            return null;
        }
        List<RunResult> runs = List.copyOf(rounds.values());
        return new Figures(system, runs.size(),
                Stats.median(of(runs, RunResult::opsPerSecond)),
                Stats.medianOrNull(of(runs, r -> r.succeeded() == 0 ? null : r.latencyMicros().p50())),
                Stats.medianOrNull(of(runs, r -> r.succeeded() == 0 ? null : r.latencyMicros().p99())),
                Stats.medianOrNull(of(runs, RunResult::serverCpuMicrosPerOp)),
                Stats.medianOrNull(of(runs, RunResult::driverCpuMicrosPerOp)),
                Stats.medianOrNull(of(runs, RunResult::serverWrittenBytesPerOp)),
                Stats.medianOrNull(of(runs, RunResult::deviceWrittenBytesPerOp)),
                runs.stream().mapToLong(RunResult::failed).sum(),
                runs.stream().mapToLong(RunResult::timedOut).sum(),
                runs.stream().mapToLong(RunResult::notSent).sum(),
                of(runs, RunResult::opsPerSecond));
    }

    /** Per-round ratios over the rounds both systems ran, and their medians. */
    private static Ratios ratios(Map<Integer, RunResult> strata, Map<Integer, RunResult> etcd) {
        List<Double> throughput = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Double> written = new ArrayList<>();
        List<Double> deviceWritten = new ArrayList<>();
        for (Map.Entry<Integer, RunResult> e : strata.entrySet()) {
            RunResult a = e.getValue();
            RunResult b = etcd.get(e.getKey());
            if (b == null) {
                continue;
            }
            throughput.add(Stats.ratio(a.opsPerSecond(), b.opsPerSecond()));
            // A run with no success has no latency to compare.
            boolean latencies = a.succeeded() > 0 && b.succeeded() > 0;
            p50.add(latencies ? Stats.ratio(a.latencyMicros().p50(), b.latencyMicros().p50()) : null);
            p99.add(latencies ? Stats.ratio(a.latencyMicros().p99(), b.latencyMicros().p99()) : null);
            cpu.add(Stats.ratio(a.serverCpuMicrosPerOp(), b.serverCpuMicrosPerOp()));
            written.add(Stats.ratio(a.serverWrittenBytesPerOp(), b.serverWrittenBytesPerOp()));
            deviceWritten.add(Stats.ratio(a.deviceWrittenBytesPerOp(), b.deviceWrittenBytesPerOp()));
        }
        return new Ratios(Stats.medianOrNull(throughput), throughput, Stats.medianOrNull(p50), Stats.medianOrNull(p99),
                Stats.medianOrNull(cpu), Stats.medianOrNull(written), Stats.medianOrNull(deviceWritten));
    }

    private static List<Double> of(List<RunResult> runs, Function<RunResult, Double> figure) {
        return runs.stream().map(figure).collect(Collectors.toCollection(ArrayList::new));
    }
}
