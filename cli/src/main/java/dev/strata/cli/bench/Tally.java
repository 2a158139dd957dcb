package dev.strata.cli.bench;

import dev.strata.client.StrataException;
import org.HdrHistogram.Histogram;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the workers did over a span of a run, per operation type: the latencies of the
 * operations that succeeded (nanoseconds), how many succeeded, how many of those were reads that
 * found no key, and how many failed with each {@link StrataException.Code}. Not thread-safe: the
 * {@link Meter} fills one per harvest and a phase adds them up on one thread at a time.
 */
final class Tally {
    /** Latencies are kept to 3 significant digits: 0.1% error at any magnitude. */
    static final int SIGNIFICANT_DIGITS = 3;
    static final int TYPES = OpType.values().length;
    static final int CODES = StrataException.Code.values().length;

    private final Histogram[] latencyNanos = new Histogram[TYPES];
    private final long[] ok = new long[TYPES];
    private final long[] notFound = new long[TYPES];
    private final long[][] failed = new long[TYPES][CODES];

    Tally() {
        for (int t = 0; t < TYPES; t++) {
            latencyNanos[t] = new Histogram(SIGNIFICANT_DIGITS);
        }
    }

    /** Sets one type's figures; for {@link Meter#harvest}. */
    void set(OpType op, Histogram latency, long ok, long notFound, long[] failedByCode) {
        int t = op.ordinal();
        latencyNanos[t] = latency;
        this.ok[t] = ok;
        this.notFound[t] = notFound;
        failed[t] = failedByCode;
    }

    void add(Tally other) {
        for (int t = 0; t < TYPES; t++) {
            latencyNanos[t].add(other.latencyNanos[t]);
            ok[t] += other.ok[t];
            notFound[t] += other.notFound[t];
            for (int c = 0; c < CODES; c++) {
                failed[t][c] += other.failed[t][c];
            }
        }
    }

    Histogram latencyNanos(OpType op) {
        return latencyNanos[op.ordinal()];
    }

    long ok(OpType op) {
        return ok[op.ordinal()];
    }

    long notFound(OpType op) {
        return notFound[op.ordinal()];
    }

    long failed(OpType op) {
        long n = 0;
        for (long f : failed[op.ordinal()]) {
            n += f;
        }
        return n;
    }

    /** The failures of {@code op} by code name, codes that did not occur left out. */
    Map<String, Long> failures(OpType op) {
        Map<String, Long> m = new TreeMap<>();
        long[] byCode = failed[op.ordinal()];
        for (StrataException.Code code : StrataException.Code.values()) {
            if (byCode[code.ordinal()] > 0) {
                m.put(code.name(), byCode[code.ordinal()]);
            }
        }
        return m;
    }

    /** Operations that succeeded, of every type. */
    long ok() {
        long n = 0;
        for (OpType op : OpType.values()) {
            n += ok(op);
        }
        return n;
    }

    /** Operations that failed, of every type. */
    long failed() {
        long n = 0;
        for (OpType op : OpType.values()) {
            n += failed(op);
        }
        return n;
    }

    /** The latencies of every type together. */
    Histogram allLatencyNanos() {
        Histogram all = new Histogram(SIGNIFICANT_DIGITS);
        for (Histogram h : latencyNanos) {
            all.add(h);
        }
        return all;
    }
}
