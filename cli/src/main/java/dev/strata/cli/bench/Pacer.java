package dev.strata.cli.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The schedule of an open-loop phase: operation {@code k} is due at {@code start + k / rate},
 * whatever the cluster does. Workers claim operations in turn and start each no earlier than it
 * is due; when every worker is busy the due ones wait, and their latency, measured from when they
 * were due, shows the wait (a closed loop would send fewer and hide it: coordinated omission).
 * Thread-safe: any number of workers claim.
 */
final class Pacer {
    private final long startNanos;
    private final double intervalNanos;
    private final AtomicLong next = new AtomicLong();

    /** @param opsPerSecond the offered rate over all workers, > 0 */
    Pacer(double opsPerSecond, long startNanos) {
        if (!(opsPerSecond > 0) || Double.isInfinite(opsPerSecond)) {
            throw new IllegalArgumentException("the rate must be a positive number of ops/s, was " + opsPerSecond);
        }
        this.startNanos = startNanos;
        this.intervalNanos = 1e9 / opsPerSecond;
    }

    /** Claims the next operation and returns when it is due (a {@link System#nanoTime} value). */
    long claim() {
        return startNanos + (long) (next.getAndIncrement() * intervalNanos);
    }

    /** Waits until {@code dueNanos}, or returns at once when it has passed. */
    static void awaitDue(long dueNanos) {
        for (long wait; (wait = dueNanos - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(wait);
        }
    }
}
