package dev.strata.cli.bench;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/**
 * The figures of one phase of a run, the warm-up or the measured run: once a second the progress
 * line harvests the meter into them and describes the second just gone; at the end they hold
 * the whole phase. Thread-safe: the progress thread and the thread that ends the phase take
 * turns.
 */
final class PhaseStats {
    private static final double NANOS_PER_MILLI = 1e6;

    /** The phase's figures: what the workers did, and how long the phase took. */
    record Result(Tally tally, double seconds) {}

    private final String label;
    private final Meter meter;
    private final long startNanos;
    private final Tally total = new Tally();
    private long lastNanos;

    /** Starts the phase now; the meter must hold nothing recorded before it (harvest it first). */
    PhaseStats(String label, Meter meter) {
        this.label = label;
        this.meter = meter;
        this.startNanos = System.nanoTime();
        this.lastNanos = startNanos;
    }

    /**
     * Harvests the meter and describes the phase: its time and its operations that succeeded and
     * failed so far, and the throughput (successes) and p99 (of successes) since the last call.
     */
    synchronized String progressLine() {
        Tally interval = meter.harvest();
        long now = System.nanoTime();
        total.add(interval);
        double seconds = (now - lastNanos) / 1e9;
        lastNanos = now;
        Histogram latency = interval.allLatencyNanos();
        String p99 = latency.getTotalCount() == 0 ? "-"
                : String.format(Locale.ROOT, "%.2f ms", latency.getValueAtPercentile(99) / NANOS_PER_MILLI);
        return String.format(Locale.ROOT, "%s %4.0f s  %,d ok  %,d failed  %,.0f ops/s  p99 %s", label,
                (now - startNanos) / 1e9, total.ok(), total.failed(), interval.ok() / seconds, p99);
    }

    /** Harvests what is left. Call once every worker of the phase has stopped. */
    synchronized Result finish() {
        long now = System.nanoTime();
        total.add(meter.harvest());
        return new Result(total, (now - startNanos) / 1e9);
    }
}
