package dev.strata.engine;

import dev.strata.engine.compaction.Backlog;
import dev.strata.engine.compaction.Compaction;
import dev.strata.engine.compaction.CompactionJob;
import dev.strata.engine.compaction.CompactionPicker;
import dev.strata.engine.compaction.ValueLogGcPolicy;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.vlog.ValueSeparator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Compaction scheduling: starts background compactions while threads are free and a level (or
 * a value-log file's garbage, or provisional compression) calls for one, runs manual
 * compactions on the caller's thread, and waits for the engine to settle.
 */
final class Compactions {
    private static final Logger LOG = LoggerFactory.getLogger(Compactions.class);
    /** Runs a look for recompression once writes may have paused (see {@link Backlog#IDLE_AFTER_FLUSH_NANOS}). */
    private static final Executor AFTER_IDLE_PERIOD = CompletableFuture.delayedExecutor(
            Backlog.IDLE_AFTER_FLUSH_NANOS + TimeUnit.MILLISECONDS.toNanos(50), TimeUnit.NANOSECONDS);

    private final EngineCore core;
    private final ReentrantLock mutex;
    private final Condition backgroundChanged;
    private final SnapshotList snapshots;
    private final JobOutputs jobOutputs;
    private final DeltaKeeper deltaKeeper;
    private final Path dir;
    private final EngineOptions options;
    private final VersionSet versions;
    private final TableCache tableCache;
    private final ObsoleteFiles obsoleteFiles;
    private final CompactionPicker picker;
    private final Statistics stats;
    private final ValueLogGcPolicy gcPolicy;
    private final ExecutorService executor;
    // Guarded by the core's mutex.
    private final Set<Long> compactingFiles = new HashSet<>();
    private int runningCompactions;
    private int manualCompactions;
    /** Threads in {@link #waitForCompactions()}: while any waits, recompression does not wait for idleness. */
    private int settling;

    Compactions(EngineCore core, JobOutputs jobOutputs, DeltaKeeper deltaKeeper) {
        this.core = core;
        this.jobOutputs = jobOutputs;
        this.deltaKeeper = deltaKeeper;
        this.dir = core.dir;
        this.options = core.options;
        this.versions = core.versions;
        this.tableCache = core.tableCache;
        this.obsoleteFiles = core.obsoleteFiles;
        this.picker = core.picker;
        this.stats = core.stats;
        this.gcPolicy = new ValueLogGcPolicy(options.valueLogGarbageRatio(), options.valueLogSpaceAmplification());
        this.executor = Executors.newFixedThreadPool(options.compactionThreads(),
                EngineCore.daemonThreads("strata-compaction-" + core.name()));
        this.mutex = core.mutex;
        this.backgroundChanged = core.backgroundChanged;
        this.snapshots = core.snapshots;
    }

    /** Starts compactions while threads are free and some level needs one. Mutex held. */
    void maybeSchedule() {
        if (core.closing || core.backgroundError != null || manualCompactions > 0) {
            return;
        }
        while (runningCompactions < options.compactionThreads()) {
            Version base = versions.acquireCurrent();
            boolean idle = Backlog.idle(core.imms.size(), core.flushRunning, runningCompactions,
                    System.nanoTime() - core.lastFlushEndNanos, settling > 0);
            Set<ValueLogId> recompress = core.policy.provisionalCodec() != null && idle
                    ? gcPolicy.provisionalCandidates(base) : Set.of();
            Compaction c = picker.pick(base, compactingFiles, core.policy, gcPolicy, gcPolicy.candidates(base), recompress);
            if (c == null) {
                versions.release(base);
                return;
            }
            markBusy(c);
            try {
                executor.execute(() -> run(c, base));
            } catch (RejectedExecutionException e) {
                unmarkBusy(c);
                versions.release(base);
                return;
            }
        }
    }

    /**
     * Starts what is due once the flushes have ended, and, under an adaptive policy, looks again
     * when writes may have paused, when recompression can start. Mutex held.
     */
    void scheduleAfterFlushes() {
        maybeSchedule();
        if (core.policy.provisionalCodec() != null) {
            AFTER_IDLE_PERIOD.execute(this::maybeScheduleLocked);
        }
    }

    private void maybeScheduleLocked() {
        mutex.lock();
        try {
            maybeSchedule();
        } finally {
            mutex.unlock();
        }
    }

    private void markBusy(Compaction c) {
        runningCompactions++;
        c.allInputs().forEach(f -> compactingFiles.add(f.number()));
    }

    private void unmarkBusy(Compaction c) {
        runningCompactions--;
        c.allInputs().forEach(f -> compactingFiles.remove(f.number()));
    }

    private void run(Compaction c, Version base) {
        try {
            execute(c, base);
        } catch (EngineException e) {
            if (core.closing && e.code() == EngineException.Code.CLOSED) {
                LOG.debug("{} abandoned: closing", c);
            } else {
                core.setBackgroundError(e);
            }
        } catch (IOException e) {
            core.setBackgroundError(EngineException.io("compaction " + c, e));
        } catch (RuntimeException | LinkageError e) { // a codec's native library that cannot load: see flushImmutables
            core.setBackgroundError(new EngineException(EngineException.Code.IO_ERROR, "compaction " + c + " failed: " + e, e));
        } finally {
            versions.release(base);
            obsoleteFiles.delete(); // before signalling: a settled engine holds no obsolete files
            deltaKeeper.enforceBudget();
            mutex.lock();
            try {
                unmarkBusy(c);
                backgroundChanged.signalAll();
                maybeSchedule();
            } finally {
                mutex.unlock();
            }
        }
    }

    /** Runs {@code c} and applies its edit; returns the output files. */
    private List<FileMetadata> execute(Compaction c, Version base) throws IOException {
        long smallestSnapshot;
        mutex.lock();
        try {
            smallestSnapshot = snapshots.oldest(core.visibleSequence);
        } finally {
            mutex.unlock();
        }
        CompressionPolicy p = core.policy;
        boolean recompress = c.reason() == Compaction.Reason.RECOMPRESS;
        Set<ValueLogId> relocate = gcPolicy.candidates(base);
        if (recompress) {
            relocate = new HashSet<>(relocate);
            relocate.addAll(gcPolicy.provisionalCandidates(base));
        }
        ValueSeparator values = jobOutputs.valueSeparator(relocate, p, ValueLogFileCreated.Job.COMPACTION, p.longLivedCodec(),
                recompress);
        CompactionJob.Result r = new CompactionJob(dir, versions, tableCache, options)
                .run(c, base, smallestSnapshot, p, values, () -> core.closing);
        if (!c.trivialMove()) {
            core.syncOutputDirectories();
        }
        versions.logAndApply(r.edit());
        stats.compactions.increment();
        if (c.reason() == Compaction.Reason.GARBAGE) {
            stats.gcCompactions.increment();
        }
        stats.compactionBytesRead.add(r.bytesRead());
        stats.compactionBytesWritten.add(r.bytesWritten());
        stats.valueLogBytes.add(r.valueLogBytesWritten());
        stats.relocatedBytes.add(r.relocatedBytes());
        stats.recompressedBytes.add(values.recompressedBytes());
        LOG.debug("{} done: {} outputs, {} bytes, {} entries dropped", c, r.outputs().size(), r.bytesWritten(),
                r.droppedEntries());
        return r.outputs();
    }

    /**
     * {@link Engine#compactRange}'s compactions, once the memtable is flushed: every level's
     * files overlapping {@code [from, to]} down to the deepest level that holds data, then that
     * bottom range in place unless this call just wrote it. Background compactions wait meanwhile.
     */
    void compactRange(byte[] from, byte[] to) {
        mutex.lock();
        try {
            manualCompactions++;
            try {
                while (runningCompactions > 0) {
                    core.checkWritable();
                    core.awaitBackground(0);
                }
                int target = Math.max(1, versions.current().deepestNonEmptyLevel());
                Set<Long> written = new HashSet<>();
                for (int level = 0; level < target; level++) {
                    int l = level;
                    runManual(base -> picker.pickManual(base, l, from, to, compactingFiles, core.policy), written);
                }
                Version v = versions.current();
                boolean bottomJustWritten = v.overlapping(target, from, to).stream().allMatch(f -> written.contains(f.number()));
                if (!bottomJustWritten) {
                    runManual(base -> picker.pickManualInPlace(base, target, from, to), written);
                }
            } finally {
                manualCompactions--;
                backgroundChanged.signalAll();
                maybeSchedule();
            }
        } finally {
            mutex.unlock();
        }
        obsoleteFiles.delete();
        deltaKeeper.enforceBudget();
    }

    /** Runs one manual compaction on this thread (mutex held on entry and exit); adds its outputs to {@code written}. */
    private void runManual(Function<Version, Compaction> pick, Set<Long> written) {
        core.checkWritable();
        Version base = versions.acquireCurrent();
        Compaction c = pick.apply(base);
        if (c == null) {
            versions.release(base);
            return;
        }
        markBusy(c);
        mutex.unlock();
        try {
            execute(c, base).forEach(f -> written.add(f.number()));
        } catch (IOException e) {
            throw EngineException.io("manual compaction " + c, e);
        } finally {
            versions.release(base);
            mutex.lock();
            unmarkBusy(c);
        }
    }

    /** Waits until no flush or compaction is running and none is due (see {@link Engine#waitForCompactions}). */
    void waitForCompactions() {
        mutex.lock();
        settling++; // recompression need not wait for writes to pause: the caller waits for it
        try {
            while (true) {
                core.checkWritable();
                maybeSchedule();
                if (!core.flushRunning && core.imms.isEmpty() && runningCompactions == 0) {
                    return;
                }
                core.awaitBackground(0);
            }
        } finally {
            settling--;
            mutex.unlock();
        }
    }

    /** Whether a compaction is running. Mutex held. */
    boolean running() {
        return runningCompactions > 0;
    }

    /** Stops taking compactions; running ones go on (they stop early once the engine is closing). */
    void shutdown() {
        executor.shutdown();
    }

    /** Waits a minute at most for the running compactions to end. */
    void awaitTermination() throws InterruptedException {
        executor.awaitTermination(1, TimeUnit.MINUTES);
    }
}
