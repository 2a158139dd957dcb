package dev.strata.bench.cluster;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Prints a {@link VersusSummary}: per workload a line for each system (medians of the rounds)
 * and a line of ratios Strata / etcd, with every round's throughput ratio in brackets.
 */
final class VersusTable {
    private VersusTable() {}

    static void print(PrintStream out, VersusSummary summary) {
        out.printf(Locale.ROOT, "%nMedians of %d round(s); latency of successful operations; failures summed over the rounds; "
                + "ratio = strata / etcd, the median of the per-round ratios (each round's throughput ratio in brackets).%n",
                summary.rounds());
        out.printf(Locale.ROOT, "%-26s %-7s %10s %8s %8s %7s %7s %8s %9s %9s %10s %10s  %s%n", "workload", "system", "ops/s",
                "p50 ms", "p99 ms", "failed", "t/out", "not-sent", "srv us/op", "drv us/op", "srv KiB/op", "dev KiB/op",
                "ops/s per round");
        for (VersusSummary.Row row : summary.rows()) {
            figures(out, row.workload(), row.strata());
            figures(out, "", row.etcd());
            VersusSummary.Ratios r = row.strataOverEtcd();
            out.printf(Locale.ROOT, "%-26s %-7s %10s %8s %8s %7s %7s %8s %9s %9s %10s %10s  [%s]%n", "", "ratio",
                    ratio(r.throughput()), ratio(r.p50()), ratio(r.p99()), "", "", "", ratio(r.serverCpuPerOp()), "",
                    ratio(r.serverWrittenBytesPerOp()), ratio(r.deviceWrittenBytesPerOp()),
                    r.throughputPerRound().stream().map(VersusTable::ratio).collect(Collectors.joining(" ")));
        }
    }

    private static void figures(PrintStream out, String workload, VersusSummary.Figures f) {
        if (f == null) {
            return;
        }
        out.printf(Locale.ROOT, "%-26s %-7s %10.0f %8s %8s %7d %7d %8d %9s %9s %10s %10s  %s%n", workload, f.system(),
                f.opsPerSecond(), RunTable.ms(f.p50Micros()), RunTable.ms(f.p99Micros()), f.failed(), f.timedOut(),
                f.notSent(), RunTable.micros(f.serverCpuMicrosPerOp()), RunTable.micros(f.driverCpuMicrosPerOp()),
                RunTable.kib(f.serverWrittenBytesPerOp()), RunTable.kib(f.deviceWrittenBytesPerOp()),
                rounded(f.opsPerSecondPerRound()));
    }

    private static String rounded(List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).collect(Collectors.joining(" "));
    }

    private static String ratio(Double r) {
        return r == null ? "-" : String.format(Locale.ROOT, "%.2f", r);
    }
}
