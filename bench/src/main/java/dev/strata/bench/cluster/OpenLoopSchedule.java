package dev.strata.bench.cluster;

/**
 * When each operation of an open-loop run is due, and which of the due ones may be sent.
 * Operation {@code k} is due at {@code start + k / rate}; every operation due before
 * {@code end} is either sent or counted as not sent, never skipped: when the in-flight cap is
 * reached, the due operations over it are not sent, and the report counts them as failures.
 *
 * <p>Not thread-safe: the one issuing thread owns it.
 */
final class OpenLoopSchedule {
    /**
     * The operations one call to {@link #admit} found due: {@code send} of them to send, numbers
     * {@code first} to {@code first + send - 1}, and the {@code notSent} after those that the cap refused.
     */
    record Admission(long first, int send, long notSent) {
        long due() {
            return send + notSent;
        }
    }

    private final long start;
    private final long end;
    private final double intervalNanos;
    private long next;

    /** @param opsPerSecond the offered rate, > 0 */
    OpenLoopSchedule(double opsPerSecond, long start, long end) {
        if (!(opsPerSecond > 0) || Double.isInfinite(opsPerSecond)) {
            throw new IllegalArgumentException("the rate must be a positive number of ops/s, was " + opsPerSecond);
        }
        this.start = start;
        this.end = end;
        this.intervalNanos = 1e9 / opsPerSecond;
    }

    /** When operation {@code k} is due: its intended start, from which its latency is measured. */
    long intendedStart(long k) {
        return start + (long) (k * intervalNanos);
    }

    /** The number of the next operation not yet admitted. */
    long next() {
        return next;
    }

    /** Whether every operation due before the end has been admitted. */
    boolean finished() {
        return intendedStart(next) >= end;
    }

    /**
     * Admits every operation due by {@code now}: as many as the cap leaves room for are to be
     * sent, the rest are not sent.
     *
     * @param inFlight    operations sent and not yet answered
     * @param maxInFlight the cap
     */
    Admission admit(long now, int inFlight, int maxInFlight) {
        long first = next;
        while (!finished() && intendedStart(next) <= now) {
            next++;
        }
        long due = next - first;
        int send = (int) Math.min(due, Math.max(0, maxInFlight - inFlight));
        return new Admission(first, send, due - send);
    }

    /** How many of operations {@code [from, to)} are due at or after {@code t}. */
    long dueAtOrAfter(long from, long to, long t) {
        long count = 0;
        for (long k = to - 1; k >= from && intendedStart(k) >= t; k--) {
            count++;
        }
        return count;
    }
}
