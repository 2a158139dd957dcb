package dev.strata.server.raft;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * A configuration change is done once the configuration it asks for is committed, whatever its
 * call says. Adding a learner makes Ratis' leader hold the change until the learner has caught
 * up, often longer than a Raft client's request timeout, so the call times out, retries on
 * another member after a backoff, and returns a second or two after the commit (or fails the
 * compare-and-set it already won). This runs the call on a thread of its own and returns as soon
 * as either the call returns or the node sees the change committed.
 */
final class ConfigurationChangeCall {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigurationChangeCall.class);
    /** How often the node's view of the committed configuration is looked at while the call runs. */
    private static final long POLL_MILLIS = 20;

    /** A blocking call that sets the configuration. */
    @FunctionalInterface
    interface Change {
        void run() throws IOException;
    }

    private ConfigurationChangeCall() {}

    /**
     * Makes {@code change} and waits until it returns or {@code committed} holds.
     *
     * @param committed whether the configuration the change asks for is committed, as this node sees it
     * @throws IOException what the change threw, unless the configuration is committed all the same
     */
    static void run(Change change, BooleanSupplier committed, String what) throws IOException {
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
                if (committed.getAsBoolean()) {
                    LOG.info("{}: committed although the call failed ({}); done", what, e.getCause().toString());
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
