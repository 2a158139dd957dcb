package dev.strata.bench;

import dev.strata.cli.bench.LatencySummary;
import dev.strata.cli.bench.MachineInfo;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The human-readable report, in db_bench's layout: a header with the run's parameters, then one
 * line per benchmark, followed by the engine's storage figures after benchmarks that change them.
 */
final class ConsoleReport {
    private static final String INDENT = " ".repeat(15);

    private final PrintStream out;

    ConsoleReport(PrintStream out) {
        this.out = out;
    }

    void header(String command, BenchTarget target, int round, int rounds, Workload w, DbDirectory db,
                MachineInfo machine) {
        long entryBytes = Keys.SIZE + (long) w.valueSize();
        line("strata-bench %s on %s%s", command, target.name(),
                rounds > 1 ? String.format(Locale.ROOT, ", round %d of %d", round, rounds) : "");
        line("Keys:        %d bytes each", Keys.SIZE);
        line("Values:      %d bytes each (about %d after compression)", w.valueSize(),
                Math.round(w.valueSize() * (1 - w.compressibility())));
        line("Entries:     %d", w.num());
        line("Raw size:    %s (estimated)", bytes(entryBytes * w.num()));
        line("Overwrites:  %d x %d", w.overwriteRounds(), w.num());
        line("Reads:       %d, %d nexts per seek", w.reads(), w.seekNexts());
        line("Threads:     %d", w.threads());
        line("Seed:        %d", w.seed());
        line("DB:          %s%s", db.path(), db.deleteOnClose() ? " (deleted at exit)" : "");
        line("Machine:     %d cores, %s memory, JDK %s (%s), max heap %s", machine.cores(),
                machine.physicalMemoryBytes() < 0 ? "unknown" : bytes(machine.physicalMemoryBytes()),
                machine.jvmVersion(), machine.jvmVendor(), bytes(machine.maxHeapBytes()));
        line("Options:     %s", target.settings().entrySet().stream()
                .map(Map.Entry::toString).collect(Collectors.joining(", ")));
        line("-".repeat(60));
    }

    void result(Benchmark benchmark, BenchmarkResult r) {
        if (benchmark.wholeDatabase()) {
            line("%-12s : %10.3f ms", r.name(), r.seconds() * 1e3);
        } else {
            rates(r);
        }
        if (r.disk() != null) {
            disk(r);
        }
        if (r.storageAfter() != null) {
            storage(r.storageAfter());
        }
    }

    /** The harness's own measures, alike for every engine. */
    private void disk(BenchmarkResult r) {
        DiskUse d = r.disk();
        line("%ssettled in %s  cpu %.2f us/op  written %s  W-amp %s  dir %s  S-amp %s (logical %s)", INDENT,
                r.settleSeconds() == null ? "-" : String.format(Locale.ROOT, "%.1f s", r.settleSeconds()),
                r.cpuMicrosPerOp(), d.bytesWritten() < 0 ? "?" : bytes(d.bytesWritten()), ratio(d.writeAmplification()),
                bytes(d.directoryBytes()), ratio(d.spaceAmplification()), ratio(d.logicalSpaceAmplification()));
    }

    private void rates(BenchmarkResult r) {
        LatencySummary latency = r.latency();
        String found = r.found() == null ? "" : String.format(Locale.ROOT, "  (%d of %d found)", r.found(), r.ops());
        if (r.writesBeside() != null) {
            found += String.format(Locale.ROOT, "  %d puts beside, %d/s", r.writesBeside(), Math.round(r.writesBesidePerSecond()));
        }
        line("%-12s : %10.3f micros/op %10d ops/s %8.1f MB/s  p50 %.2f us  p99 %.2f us  p99.9 %.2f us%s",
                r.name(), r.microsPerOp(), Math.round(r.opsPerSecond()), r.mbPerSecond(),
                latency.p50(), latency.p99(), latency.p999(), found);
    }

    /** The engine's own view: its write amplification counts since it opened. */
    private void storage(StorageStats s) {
        line("%sengine: write-amp %.2f  space-amp %.2f  disk %s  live %s  flushes %d  compactions %d  stalled %.1f ms",
                INDENT, s.writeAmplification(), s.spaceAmplification(), bytes(s.totalBytes()), bytes(s.liveBytes()),
                s.flushes(), s.compactions(), s.stallMicros() / 1e3);
        for (StorageStats.Level level : s.levels()) {
            line("%sL%d %5d files %11s stored %11s raw  %.2fx", INDENT, level.level(), level.files(),
                    bytes(level.storedBytes()), bytes(level.rawBytes()), level.compressionRatio());
        }
    }

    /**
     * The summary of several runs: per benchmark, each engine's medians, then the ratios of the
     * first engine over the second when there are two.
     */
    void comparison(Comparison c) {
        line("-".repeat(60));
        line("Summary: medians of %d round%s%s", c.rounds(), c.rounds() == 1 ? "" : "s",
                c.engines().size() == 2 ? "; ratio = " + c.engines().get(0) + " / " + c.engines().get(1)
                        + ", the median of the per-round ratios" : "");
        line("%-12s %-8s %10s %8s %9s %9s %9s %8s %7s %7s %7s %10s", "benchmark", "engine", "ops/s", "MB/s",
                "p50 us", "p99 us", "cpu us/op", "settle s", "W-amp", "S-amp", "logical", "dir");
        for (Comparison.Row row : c.rows()) {
            String name = row.benchmark();
            for (Comparison.Figures f : row.figures()) {
                line("%-12s %-8s %10.0f %8.1f %9.2f %9.2f %9.2f %8s %7s %7s %7s %10s", name, f.engine(), f.opsPerSecond(),
                        f.mbPerSecond(), f.p50Micros(), f.p99Micros(), f.cpuMicrosPerOp(),
                        f.settleSeconds() == null ? "-" : String.format(Locale.ROOT, "%.1f", f.settleSeconds()),
                        ratio(f.writeAmplification()), ratio(f.spaceAmplification()),
                        ratio(f.logicalSpaceAmplification()),
                        f.directoryBytes() == null ? "-" : bytes(Math.round(f.directoryBytes())));
                name = "";
            }
            Comparison.Ratios r = row.ratios();
            if (r != null) {
                line("%-12s %-8s %9.2fx %8s %9s %8.2fx %8.2fx %8s %7s %7s %7s %10s", "", "ratio", r.throughput(), "", "",
                        r.p99(), r.cpuPerOp(), "", ratio(r.writeAmplification()), ratio(r.spaceAmplification()), "",
                        r.directoryBytes() == null ? "-" : ratio(r.directoryBytes()));
            }
        }
    }

    /** A dimensionless figure with two decimals, or "-" when missing. */
    static String ratio(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    private void line(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
    }

    /** A byte count with a binary unit: {@code 512 B}, {@code 12.3 MiB}. */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        int unit = (63 - Long.numberOfLeadingZeros(n)) / 10;
        return String.format(Locale.ROOT, "%.1f %siB", n / (double) (1L << (unit * 10)), "KMGTPE".charAt(unit - 1));
    }
}
