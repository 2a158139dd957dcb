package dev.strata.cli.bench;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The report for people: what ran, then one line per operation type with its throughput and
 * latency percentiles in milliseconds, then the failures by code.
 */
public final class SummaryTable {
    private static final double MICROS_PER_MILLI = 1_000;

    private SummaryTable() {}

    public static void print(BenchReport r, PrintWriter out) {
        BenchSettings s = r.settings();
        line(out, "workload %s (%s keys, %s reads): %,d keys, %,d-byte values (%.0f%% compressible), %d clients, seed %d",
                s.workload(), s.distribution(), s.consistency().name().toLowerCase(Locale.ROOT), s.keys(), s.valueSize(),
                s.compressibility() * 100, s.clients(), s.seed());
        line(out, "endpoints: %s (%s)", String.join(", ", r.endpoints()), r.target());
        if (r.load() != null) {
            line(out, "load: %,d keys in %.1f s (%,.0f keys/s)", r.load().keys(), r.load().seconds(), r.load().keysPerSecond());
        }
        String loop = s.rate() == null ? "closed loop" : String.format(Locale.ROOT, "open loop, offered %,.0f ops/s", s.rate());
        line(out, "run (%s): %.1f s, %,d ok, %,.1f ops/s, %,d failed", loop, r.seconds(), r.ok(), r.opsPerSecond(),
                r.failed());
        if (r.serverCpu() != null) {
            line(out, "server CPU: %.1f s over processes %s, %,.0f us per ok operation", r.serverCpu().seconds(),
                    r.serverCpu().pids(), r.serverCpu().microsPerOp());
        }
        out.println();
        line(out, "%-18s %12s %8s %11s %9s %9s %9s %9s %9s", "op", "ok", "failed", "ops/s", "p50 ms", "p90 ms", "p99 ms",
                "p99.9 ms", "max ms");
        for (BenchReport.OpStats op : r.operations()) {
            LatencySummary l = op.latencyMicros();
            line(out, "%-18s %,12d %,8d %,11.1f %9.3f %9.3f %9.3f %9.3f %9.3f", op.op(), op.ok(), op.failed(), op.opsPerSecond(),
                    l.p50() / MICROS_PER_MILLI, l.p90() / MICROS_PER_MILLI, l.p99() / MICROS_PER_MILLI,
                    l.p999() / MICROS_PER_MILLI, l.max() / MICROS_PER_MILLI);
        }
        for (BenchReport.OpStats op : r.operations()) {
            if (!op.failures().isEmpty()) {
                line(out, "%s failures: %s", op.op(), op.failures().entrySet().stream()
                        .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue()))
                        .collect(Collectors.joining(", ")));
            }
        }
        for (BenchReport.OpStats op : r.operations()) {
            if (op.notFound() > 0) {
                line(out, "%s: %,d of %,d found no key", op.op(), op.notFound(), op.ok());
            }
        }
        out.flush();
    }

    private static void line(PrintWriter out, String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
    }
}
