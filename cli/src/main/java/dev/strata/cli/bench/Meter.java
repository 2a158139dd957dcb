package dev.strata.cli.bench;

import dev.strata.client.StrataException;
import org.HdrHistogram.Recorder;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where the workers record each operation, and where the progress line harvests them. Recording
 * takes no lock: a {@link Recorder} per operation type for latencies, {@link LongAdder}s for the
 * counts. Thread-safe; any number of workers record, harvests are serialised.
 */
final class Meter {
    private static final int TYPES = Tally.TYPES;
    private static final int CODES = Tally.CODES;

    private final Recorder[] latencyNanos = new Recorder[TYPES];
    private final LongAdder[] ok = new LongAdder[TYPES];
    private final LongAdder[] notFound = new LongAdder[TYPES];
    private final LongAdder[][] failed = new LongAdder[TYPES][CODES];

    Meter() {
        for (int t = 0; t < TYPES; t++) {
            latencyNanos[t] = new Recorder(Tally.SIGNIFICANT_DIGITS);
            ok[t] = new LongAdder();
            notFound[t] = new LongAdder();
            for (int c = 0; c < CODES; c++) {
                failed[t][c] = new LongAdder();
            }
        }
    }

    /** {@code op} succeeded after {@code nanos}; {@code found} is false for a read that found no key. */
    void succeeded(OpType op, long nanos, boolean found) {
        int t = op.ordinal();
        latencyNanos[t].recordValue(nanos);
        ok[t].increment();
        if (!found) {
            notFound[t].increment();
        }
    }

    void failed(OpType op, StrataException.Code code) {
        failed[op.ordinal()][code.ordinal()].increment();
    }

    /**
     * What was recorded since the last harvest. {@link LongAdder#sumThenReset} takes each cell
     * with an atomic swap, so a count racing a harvest lands in this one or the next, never lost;
     * an operation may be counted in one harvest and its latency in the next.
     */
    synchronized Tally harvest() {
        Tally t = new Tally();
        for (OpType op : OpType.values()) {
            int i = op.ordinal();
            long[] byCode = new long[CODES];
            for (int c = 0; c < CODES; c++) {
                byCode[c] = failed[i][c].sumThenReset();
            }
            t.set(op, latencyNanos[i].getIntervalHistogram(), ok[i].sumThenReset(), notFound[i].sumThenReset(), byCode);
        }
        return t;
    }
}
