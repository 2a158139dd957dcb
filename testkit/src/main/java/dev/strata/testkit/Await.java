package dev.strata.testkit;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes; tests wait on conditions, never on fixed sleeps. */
public final class Await {
    private static final long POLL_NANOS = Duration.ofMillis(50).toNanos();

    private Await() {}

    public static void until(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
                last = null;
            } catch (RuntimeException e) {
                // A node may be starting or stopping: its answer counts only when it comes.
                last = e;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        AssertionError failure = new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
        if (last != null) {
            failure.initCause(last);
        }
        throw failure;
    }
}
