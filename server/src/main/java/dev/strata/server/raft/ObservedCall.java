package dev.strata.server.raft;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * An admin call is done once this node sees its effect, whatever the call says. Adding a learner
 * makes Ratis' leader hold the configuration change until the learner has caught up, often longer
 * than a Raft client's request timeout, so the call times out, retries on another member after a
 * backoff, and returns a second or two after the commit (or fails the compare-and-set it already
 * won). A leadership transfer can be answered TIMED_OUT while it succeeds: Ratis 3.3 gives each
 * transfer a timer that fails whichever transfer the leader has pending when it fires, and the old
 * leader, having just stepped down, has not heard of the new one yet. This runs the call on a
 * thread of its own and returns as soon as either the call returns or the node sees the effect;
 * a failed call still counts when the effect shows within a grace period after it.
 */
final class ObservedCall {
    private static final Logger LOG = LoggerFactory.getLogger(ObservedCall.class);
    /** How often the node's view is looked at while the call runs, and after it failed. */
    private static final long POLL_MILLIS = 20;

    /** A blocking admin call. */
    @FunctionalInterface
    interface Change {
        void run() throws IOException;
    }

    private ObservedCall() {}

    /** {@link #run(Change, BooleanSupplier, Duration, String)} with no grace after a failed call. */
    static void run(Change change, BooleanSupplier committed, String what) throws IOException {
        run(change, committed, Duration.ZERO, what);
    }

    /**
     * Makes {@code change} and waits until it returns or {@code committed} holds.
     *
     * @param committed whether the change's effect is in place (committed), as this node sees it
     * @param grace     how long after a failed call to keep looking for the effect
     * @throws IOException what the change threw, unless its effect shows all the same
     */
    static void run(Change change, BooleanSupplier committed, Duration grace, String what) throws IOException {
        CompletableFuture<Void> call = new CompletableFuture<>();
        Thread.ofVirtual().name("strata-configuration-change").start(() -> {
            try {
                change.run();
                call.complete(null);
            } catch (Throwable t) {
                call.completeExceptionally(t);
            }
        });
        while (true) {
            try {
                call.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                if (committed.getAsBoolean()) {
                    call.whenComplete((ok, failure) -> {
                        if (failure != null) {
                            LOG.info("{}: committed before its call returned; the call then failed ({})", what, failure.toString());
                        }
                    });
                    return;
                }
            } catch (ExecutionException e) {
                if (observedWithin(committed, grace)) {
                    LOG.info("{}: done although the call failed ({})", what, e.getCause().toString());
                    return;
                }
                throw rethrown(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                InterruptedIOException interrupted = new InterruptedIOException("interrupted while waiting for " + what);
                interrupted.initCause(e);
                throw interrupted;
            }
        }
    }

    /** Whether {@code committed} holds now or within {@code grace}, looked at every {@link #POLL_MILLIS}. */
    private static boolean observedWithin(BooleanSupplier committed, Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        while (!committed.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false; // the call's own failure is then what the caller sees
            }
        }
        return true;
    }

    private static IOException rethrown(Throwable cause) {
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof RuntimeException r) {
            throw r;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new IOException(cause);
    }
}
