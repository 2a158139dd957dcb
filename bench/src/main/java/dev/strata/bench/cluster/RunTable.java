package dev.strata.bench.cluster;

import dev.strata.cli.bench.LatencySummary;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Prints runs one line each, as they finish: successes (ops/s and latency percentiles of the
 * successful operations) beside the failures (all, timed out, not sent), then CPU per successful
 * operation of the servers and of the driver the servers' bytes written and their device's per operation; a run with failures gets a second line with each
 * failure name and count.
 */
final class RunTable {
    private RunTable() {}

    static void header(PrintStream out) {
        out.printf(Locale.ROOT, "%-6s %-26s %10s %8s %8s %8s %8s %8s %9s %7s %7s %8s %9s %9s %10s %10s%n", "system",
                "workload", "ops/s", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "ok", "failed", "t/out",
                "not-sent", "srv us/op", "drv us/op", "srv KiB/op", "dev KiB/op");
    }

    static void row(PrintStream out, RunResult r) {
        out.printf(Locale.ROOT, "%-6s %-26s %10.0f %8s %8s %8s %8s %8s %9d %7d %7d %8d %9s %9s %10s %10s%n", r.system(),
                r.workload(), r.opsPerSecond(), ms(latency(r, LatencySummary::p50)), ms(latency(r, LatencySummary::p90)),
                ms(latency(r, LatencySummary::p99)), ms(latency(r, LatencySummary::p999)), ms(latency(r, LatencySummary::max)),
                r.succeeded(), r.failed(), r.timedOut(), r.notSent(), micros(r.serverCpuMicrosPerOp()),
                micros(r.driverCpuMicrosPerOp()), kib(r.serverWrittenBytesPerOp()), kib(r.deviceWrittenBytesPerOp()));
        if (r.failed() > 0) {
            out.println("       failures: " + r.failures());
        }
    }

    /** A latency figure of {@code r}; null when nothing succeeded (no latency, rather than one of 0). */
    private static Double latency(RunResult r, ToDoubleFunction<LatencySummary> figure) {
        return r.succeeded() == 0 ? null : figure.applyAsDouble(r.latencyMicros());
    }

    /** Microseconds as milliseconds with two decimals, or "-" when missing. */
    static String ms(Double micros) {
        return micros == null ? "-" : String.format(Locale.ROOT, "%.2f", micros / 1000);
    }

    /** Bytes as KiB with one decimal, or "-" when unknown. */
    static String kib(Double bytes) {
        return bytes == null ? "-" : String.format(Locale.ROOT, "%.1f", bytes / 1024);
    }

    /** A CPU figure, or "-" when unknown. */
    static String micros(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }
}
