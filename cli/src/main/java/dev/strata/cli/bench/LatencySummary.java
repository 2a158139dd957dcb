package dev.strata.cli.bench;

import org.HdrHistogram.Histogram;

/**
 * Percentiles of one benchmark's per-op latencies, in microseconds: what the reports print and
 * write as JSON.
 *
 * @param count ops recorded
 */
public record LatencySummary(long count, double mean, double p50, double p90, double p99, double p999, double max) {
    private static final double NANOS_PER_MICRO = 1_000;

    /** Summarises a histogram of nanoseconds. */
    public static LatencySummary of(Histogram nanos) {
        return new LatencySummary(nanos.getTotalCount(),
                nanos.getMean() / NANOS_PER_MICRO,
                nanos.getValueAtPercentile(50) / NANOS_PER_MICRO,
                nanos.getValueAtPercentile(90) / NANOS_PER_MICRO,
                nanos.getValueAtPercentile(99) / NANOS_PER_MICRO,
                nanos.getValueAtPercentile(99.9) / NANOS_PER_MICRO,
                nanos.getMaxValue() / NANOS_PER_MICRO);
    }
}
