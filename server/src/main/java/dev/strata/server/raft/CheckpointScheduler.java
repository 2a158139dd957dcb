package dev.strata.server.raft;

import dev.strata.engine.Checkpoint;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Decides when a node takes the checkpoints that let Raft purge its log, and takes the periodic
 * ones on a thread of its own.
 *
 * <p>A checkpoint flushes the engine's memtable, which under a stream of large writes takes
 * hundreds of milliseconds. Ratis asks for snapshots on the thread that applies the log, so a
 * checkpoint taken there held back every write for that long. Instead the apply thread reports
 * each entry it applied ({@link #applied}); once enough log went by it starts a checkpoint here
 * and goes on. When the checkpoint is done, {@code announce} asks Ratis for a snapshot, whose
 * {@code takeSnapshot} reports what the engine's files now hold, and Ratis purges the log up to
 * that. The announcement runs apart from the checkpoint, since Ratis may take its server lock
 * for it, and it holds that lock while it pauses the state machine, which waits for a running
 * checkpoint ({@link #suspend()}). At most one runs at a time; while it runs the log keeps counting, so the next starts as
 * soon as it is done if it is due. A failed checkpoint is logged and the next is tried after
 * another threshold of log; until then the log is simply not purged.
 *
 * <p>An operator's checkpoint ({@link #requestNow()}) is the exception: the state machine takes
 * it on the apply thread, so that it holds every entry applied before the request.
 */
final class CheckpointScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointScheduler.class);

    private final long thresholdEntries;
    private final long thresholdBytes;
    private final ExecutorService thread;
    private final Runnable onTaken;
    private final Runnable announce;
    private final AtomicBoolean nowRequested = new AtomicBoolean();
    /** Set while the engine is closed for a checkpoint install; guarded by this. */
    private boolean suspended;
    /** Log applied since the last checkpoint started; the apply thread's own. */
    private long entriesSince;
    private long bytesSince;
    /** The checkpoint running or last run; guarded by this. */
    private Future<?> running;

    /**
     * @param threadName       the name of the thread that takes the periodic checkpoints
     * @param thresholdEntries start one after this many log entries since the last
     * @param thresholdBytes   or after this many log bytes
     * @param onTaken          told on that thread after each checkpoint taken (for the counters)
     * @param announce         told after each checkpoint taken, on a thread of the common pool, to
     *                         tell Ratis
     */
    CheckpointScheduler(String threadName, long thresholdEntries, long thresholdBytes, Runnable onTaken, Runnable announce) {
        this.thresholdEntries = thresholdEntries;
        this.thresholdBytes = thresholdBytes;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        this.onTaken = onTaken;
        this.announce = announce;
    }

    /**
     * Counts one applied log entry of {@code bytes} and, when a checkpoint is due and none runs,
     * starts {@code checkpoint} (usually {@link Engine#checkpoint()}). The apply thread's call.
     */
    void applied(long bytes, Supplier<Checkpoint> checkpoint) {
        entriesSince++;
        bytesSince += bytes;
        if ((entriesSince >= thresholdEntries || bytesSince >= thresholdBytes) && start(checkpoint)) {
            restartCount();
        }
    }

    /** Starts counting the log again: a checkpoint was just started or taken. The apply thread's call. */
    void restartCount() {
        entriesSince = 0;
        bytesSince = 0;
    }

    /** Asks for an operator's checkpoint; the state machine's next {@code takeSnapshot} takes it. */
    void requestNow() {
        nowRequested.set(true);
    }

    /** Whether a {@link #requestNow()} still waits to be taken. */
    boolean nowPending() {
        return nowRequested.get();
    }

    /** Takes the pending {@link #requestNow()}, if any: says whether there was one. */
    boolean takeNowRequest() {
        return nowRequested.getAndSet(false);
    }

    /** Withdraws a {@link #requestNow()} whose caller gave up, so no later snapshot takes it on the apply thread. */
    void cancelNow() {
        nowRequested.set(false);
    }

    /**
     * Starts no checkpoint until {@link #resume()} and waits for the one running: before the engine
     * is closed under it, so none links files that an install replaces.
     */
    void suspend() {
        synchronized (this) {
            suspended = true;
        }
        awaitIdle();
    }

    /** Lets checkpoints start again after {@link #suspend()}: the engine is open. */
    synchronized void resume() {
        suspended = false;
    }

    /** Starts {@code checkpoint} unless one is running, or this is suspended or closed; says whether it started it. */
    synchronized boolean start(Supplier<Checkpoint> checkpoint) {
        if (suspended || running != null && !running.isDone()) {
            return false;
        }
        try {
            running = thread.submit(() -> take(checkpoint));
            return true;
        } catch (RejectedExecutionException closed) {
            return false;
        }
    }

    private void take(Supplier<Checkpoint> checkpoint) {
        long started = System.nanoTime();
        Checkpoint c;
        try {
            c = checkpoint.get();
        } catch (EngineException e) {
            if (e.code() == EngineException.Code.CLOSED) {
                LOG.info("checkpoint abandoned: the engine was closed while it flushed");
            } else {
                LOG.warn("checkpoint failed; the Raft log is purged after the next one: {}", e.getMessage(), e);
            }
            return;
        } catch (RuntimeException e) {
            LOG.error("checkpoint failed unexpectedly; the Raft log is purged after the next one", e);
            return;
        }
        onTaken.run();
        LOG.info("checkpoint taken in the background: the engine's files hold sequence {}; {} ms", c.sequence(),
                (System.nanoTime() - started) / 1_000_000);
        CompletableFuture.runAsync(announce);
    }

    /** Waits until no periodic checkpoint runs (its announcement apart). */
    void awaitIdle() {
        Future<?> f;
        synchronized (this) {
            f = running;
        }
        if (f == null) {
            return;
        }
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.error("the background checkpoint failed unexpectedly: {}", e.getCause().toString(), e.getCause());
        }
    }

    /** Starts no more checkpoints and waits for the one running. */
    @Override
    public void close() {
        thread.shutdown();
        awaitIdle();
    }
}
