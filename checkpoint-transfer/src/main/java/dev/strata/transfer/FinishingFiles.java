package dev.strata.transfer;

import dev.strata.proto.internal.v1.ContentId;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The received files of one fetch attempt that are verified and on their way to disk: each
 * one's fsync and rename run on another thread while the next file streams in, at most
 * {@link #MAX_PENDING} at once, instead of the receiving thread stopping for the disk at every
 * file's end. The fetch waits for all of them ({@link #awaitAll}) before it uses any; a failure
 * of one fails that wait, as it would have failed the receive.
 */
final class FinishingFiles {
    /** Files fsynced at once; the next finished file waits for the oldest beyond this. */
    static final int MAX_PENDING = 4;

    private final StagingArea staging;
    private final ExecutorService executor;
    private final ArrayDeque<Future<?>> pending = new ArrayDeque<>();

    FinishingFiles(StagingArea staging, ExecutorService executor) {
        this.staging = staging;
        this.executor = executor;
    }

    /**
     * Verifies {@code written} against {@code c} now and makes it durable and finished in the
     * background.
     *
     * @throws dev.strata.engine.CorruptionException when it does not match (it is deleted)
     * @throws IOException when an earlier file's fsync failed
     */
    void finish(ContentId c, PartFile written) throws IOException {
        staging.verify(c, written);
        while (pending.size() >= MAX_PENDING) {
            awaitOldest();
        }
        pending.add(executor.submit(() -> {
            staging.makeDurable(c, written);
            return null;
        }));
    }

    /** Waits until every file given to {@link #finish} is durable and finished. */
    void awaitAll() throws IOException {
        while (!pending.isEmpty()) {
            awaitOldest();
        }
    }

    private void awaitOldest() throws IOException {
        Future<?> oldest = pending.poll();
        try {
            oldest.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("finishing a staged file failed: " + e.getCause(), e.getCause());
        } catch (CancellationException e) {
            throw new IOException("finishing a staged file was cancelled", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while finishing staged files", e);
        }
    }

    /**
     * Waits for what is still pending after {@code cause} ended the attempt early, so that
     * nothing touches the staging area after the attempt; their failures are added to it.
     */
    void awaitAfter(Throwable cause) {
        while (!pending.isEmpty()) {
            try {
                awaitOldest();
            } catch (IOException e) {
                cause.addSuppressed(e);
            }
        }
    }
}
