package dev.strata.engine;

import dev.strata.engine.compaction.Backlog;
import dev.strata.engine.compaction.CompactionJob;
import dev.strata.engine.compaction.ObsoleteEntryFilter;
import dev.strata.engine.compaction.TableOutputs;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.iterator.MergingIterator;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueSeparator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Flushes: writes frozen memtables as L0 tables on the flush thread, commits them (and their
 * delta), and deletes files that no version needs any more.
 */
final class Flushes {
    private static final Logger LOG = LoggerFactory.getLogger(Flushes.class);
    private final EngineCore core;
    private final ReentrantLock mutex;
    private final Condition backgroundChanged;
    private final SnapshotList snapshots;
    private final JobOutputs jobOutputs;
    private final DeltaKeeper deltaKeeper;
    private final Compactions compactions;
    private final Path dir;
    private final EngineOptions options;
    private final VersionSet versions;
    private final ObsoleteFiles obsoleteFiles;
    private final Statistics stats;
    private final ExecutorService executor;

    Flushes(EngineCore core, JobOutputs jobOutputs, DeltaKeeper deltaKeeper, Compactions compactions) {
        this.core = core;
        this.jobOutputs = jobOutputs;
        this.deltaKeeper = deltaKeeper;
        this.compactions = compactions;
        this.dir = core.dir;
        this.options = core.options;
        this.versions = core.versions;
        this.obsoleteFiles = core.obsoleteFiles;
        this.stats = core.stats;
        this.executor = Executors.newSingleThreadExecutor(EngineCore.daemonThreads("strata-flush-" + core.name()));
        this.mutex = core.mutex;
        this.backgroundChanged = core.backgroundChanged;
        this.snapshots = core.snapshots;
    }

    /** Starts the flush thread on the frozen memtables, unless it is running already. Mutex held. */
    void schedule() {
        if (core.flushRunning || core.imms.isEmpty() || core.closed) {
            return;
        }
        core.flushRunning = true;
        executor.execute(this::flushImmutables);
    }

    /**
     * Flushes frozen memtables until none is left. Every memtable waiting when a flush starts
     * goes into one L0 table (RocksDB's flush job does the same): fewer, larger L0 files mean
     * fewer L0 compactions, and a key overwritten across those memtables is written once.
     */
    private void flushImmutables() {
        while (true) {
            List<MemTable> batch;
            long nextWalNumber;
            long smallestSnapshot;
            mutex.lock();
            try {
                if (core.imms.isEmpty() || core.backgroundError != null) {
                    core.flushRunning = false;
                    backgroundChanged.signalAll();
                    compactions.scheduleAfterFlushes();
                    return;
                }
                batch = List.copyOf(core.imms);
                nextWalNumber = core.mem.walNumber(); // every log before the active memtable's is flushed with the batch
                smallestSnapshot = snapshots.oldest(core.visibleSequence);
            } finally {
                mutex.unlock();
            }
            try {
                flush(batch, nextWalNumber, smallestSnapshot);
            } catch (IOException e) {
                core.setBackgroundError(EngineException.io("flushing memtable", e));
            } catch (EngineException e) {
                core.setBackgroundError(e);
            } catch (RuntimeException | LinkageError e) {
                // A LinkageError comes from a codec whose native library cannot load (zstd-jni unpacks
                // it on first use; a full temporary directory fails that). It must end as a failed
                // flush: a dead flush thread would leave every writer and close waiting for it.
                core.setBackgroundError(new EngineException(EngineException.Code.IO_ERROR, "flush failed: " + e, e));
            }
        }
    }

    /** Writes frozen memtables (oldest first) as one L0 table and commits it. */
    private void flush(List<MemTable> batch, long nextWalNumber, long smallestSnapshot) throws IOException {
        long start = System.nanoTime();
        long coveredBefore = versions.lastSequence();
        long largest = batch.stream().mapToLong(MemTable::largestSequence).max().orElse(0);
        VersionEdit.Builder edit = VersionEdit.builder().logNumber(nextWalNumber)
                .lastSequence(Math.max(largest, coveredBefore));
        for (MemTable m : batch) {
            if (m.appliedMarker() != null) {
                edit.appliedMarker(m.appliedMarker()); // the newest memtable's marker wins
            }
        }
        Version base = versions.acquireCurrent();
        List<InternalIterator> sources = new ArrayList<>();
        batch.forEach(m -> sources.add(m.iterator()));
        try (InternalIterator merged = sources.size() == 1 ? sources.get(0) : new MergingIterator(sources)) {
            writeLevel0(merged, base, smallestSnapshot, edit,
                    Backlog.flushBehind(batch.size(), base, options, core.activeFillAtLastFlushEnd));
        } finally {
            versions.release(base);
        }
        core.syncOutputDirectories();
        VersionEdit built = edit.build();
        deltaKeeper.commit(built, coveredBefore);
        stats.flushes.increment();
        if (LOG.isDebugEnabled()) {
            LOG.debug("flushed {} memtables of {} entries in {} ms: {}", batch.size(),
                    batch.stream().mapToInt(MemTable::size).sum(), (System.nanoTime() - start) / 1_000_000, built);
        }
        mutex.lock();
        try {
            core.imms.removeAll(batch);
            core.publishMemTables();
            core.activeFillAtLastFlushEnd = (double) core.mem.approximateBytes() / options.writeBufferSize();
            core.lastFlushEndNanos = System.nanoTime();
        } finally {
            mutex.unlock();
        }
        obsoleteFiles.delete(); // the flushed memtables' logs, before anyone waiting on the flush is woken
        deltaKeeper.enforceBudget();
        mutex.lock();
        try {
            backgroundChanged.signalAll();
            compactions.maybeSchedule();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Writes sorted entries (memtables) as an L0 table, dropping what no reader can see and
     * separating large values into a value log; adds what it wrote to {@code edit} (nothing
     * when all was dropped).
     *
     * @param behind whether the engine is behind (see {@link Backlog}): the values then get the
     *               policy's provisional codec, if it has one
     */
    void writeLevel0(InternalIterator entries, Version base, long smallestSnapshot, VersionEdit.Builder edit,
                             boolean behind) throws IOException {
        CompressionPolicy p = core.policy;
        TableOutputs outputs = new TableOutputs(dir, versions, jobOutputs.level0TableOptions(base, p), Long.MAX_VALUE, List.of(),
                Long.MAX_VALUE);
        ValueSeparator values = jobOutputs.valueSeparator(Set.of(), p, ValueLogFileCreated.Job.FLUSH, p.longLivedCodec(behind),
                false);
        ObsoleteEntryFilter filter = new ObsoleteEntryFilter(smallestSnapshot, CompactionJob.baseLevelCheck(base, -1));
        try {
            for (entries.seekToFirst(); entries.valid(); entries.next()) {
                if (filter.keep(entries.key())) {
                    ValueSeparator.Entry e = values.keep(entries.key(), entries.value());
                    outputs.add(e.key(), e.value());
                }
            }
            List<ValueLogFileMetadata> logs = values.finish();
            List<FileMetadata> files = outputs.finish();
            files.forEach(f -> edit.addFile(0, f));
            logs.forEach(edit::addValueLog);
            stats.flushBytes.add(outputs.bytesWritten());
            stats.valueLogBytes.add(values.bytesWritten());
        } catch (IOException | RuntimeException | LinkageError e) {
            try {
                outputs.abandon();
                values.abandon();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    void scheduleObsoleteFileDeletion() {
        try {
            executor.execute(obsoleteFiles::delete);
        } catch (RejectedExecutionException e) {
            // closing: close() runs a final deletion pass itself
        }
    }

    /** Stops taking flushes; a running flush goes on. */
    void shutdown() {
        executor.shutdown();
    }

    /** Waits a minute at most for a running flush to end. */
    void awaitTermination() throws InterruptedException {
        executor.awaitTermination(1, TimeUnit.MINUTES);
    }
}
