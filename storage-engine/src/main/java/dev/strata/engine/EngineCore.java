package dev.strata.engine;

import dev.strata.engine.compaction.CompactionPicker;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.util.Directories;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogs;
import dev.strata.engine.wal.LogWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state an engine's parts share (LevelDB's DBImpl fields, which Pebble spreads over files
 * the same way): the files and caches, the memtables and the log, the sequences, and the mutex
 * that guards what changes. The parts (write queue, flushes, compactions, reads, ingestion)
 * each take it once; the helpers here are the ones every part needs.
 */
final class EngineCore {
    private static final Logger LOG = LoggerFactory.getLogger(EngineCore.class);

    final Path dir;
    final EngineOptions options;
    final VersionSet versions;
    final TableCache tableCache;
    final ValueLogs valueLogs;
    final Checkpoints checkpoints;
    final DeltaChain deltas;
    final ObsoleteFiles obsoleteFiles;
    final CompactionPicker picker;
    final SnapshotList snapshots = new SnapshotList();
    final Statistics stats = new Statistics();
    volatile CompressionPolicy policy;

    // Everything below is guarded by mutex, except where noted.
    final ReentrantLock mutex = new ReentrantLock();
    /** Signalled whenever background work finishes, a background error is set, or the engine closes. */
    final Condition backgroundChanged = mutex.newCondition();
    MemTable mem;
    final List<MemTable> imms = new ArrayList<>(); // oldest first
    /** The memtables a reader sees; replaced (never mutated) under mutex, read without it. */
    volatile MemTables memtables;
    /** The log the write leader appends to; touched only by the leader (or under mutex with no leader). */
    LogWriter wal;
    /** Sequence of the last write handed to the memtable; the leader's counter. */
    long lastSequence;
    /** Sequence of the newest write readers may see. */
    volatile long visibleSequence;
    boolean flushRunning;
    /** The active memtable's fill (bytes over the write buffer size) when the last flush finished. */
    volatile double activeFillAtLastFlushEnd;
    /** When the last flush finished, or the engine opened. */
    long lastFlushEndNanos = System.nanoTime();
    volatile EngineException backgroundError;
    volatile boolean closing;
    boolean closed;

    EngineCore(Path dir, EngineOptions options, VersionSet versions, TableCache tableCache, ValueLogs valueLogs,
               Checkpoints checkpoints, DeltaChain deltas) {
        this.dir = dir;
        this.options = options;
        this.versions = versions;
        this.tableCache = tableCache;
        this.valueLogs = valueLogs;
        this.checkpoints = checkpoints;
        this.deltas = deltas;
        this.obsoleteFiles = new ObsoleteFiles(dir, versions, tableCache, valueLogs);
        this.picker = new CompactionPicker(options);
        this.policy = options.compressionPolicy();
    }

    /** The directory's name, for the engine's thread names. */
    String name() {
        return dir.getFileName() == null ? "root" : dir.getFileName().toString();
    }

    static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    void publishMemTables() {
        List<MemTable> newestFirst = new ArrayList<>(imms);
        Collections.reverse(newestFirst);
        memtables = new MemTables(mem, List.copyOf(newestFirst));
    }

    void setBackgroundError(EngineException e) {
        mutex.lock();
        try {
            if (backgroundError == null) {
                backgroundError = e;
                LOG.error("background error in {}; writes are stopped until the engine is reopened", dir, e);
            }
            backgroundChanged.signalAll();
        } finally {
            mutex.unlock();
        }
    }

    /** Waits on background progress, at most {@code millis} ms (0 = until signalled). Mutex held. */
    void awaitBackground(long millis) {
        try {
            if (millis > 0) {
                backgroundChanged.await(millis, TimeUnit.MILLISECONDS);
            } else {
                backgroundChanged.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineException(EngineException.Code.IO_ERROR, "interrupted while waiting for background work");
        }
    }

    void checkWritable() {
        if (closing) {
            throw new EngineException(EngineException.Code.CLOSED, "engine at " + dir + " is closed");
        }
        EngineException bg = backgroundError;
        if (bg != null) {
            throw new EngineException(bg.code(), "writes stopped after a background error: " + bg.getMessage(), bg);
        }
    }

    void checkOpen() {
        if (closing) {
            throw new EngineException(EngineException.Code.CLOSED, "engine at " + dir + " is closed");
        }
    }

    /** New files' directory entries must be durable before the manifest edit that names them. */
    void syncOutputDirectories() throws IOException {
        Directories.sync(dir);
        if (!valueLogs.directory().equals(dir)) {
            Directories.sync(valueLogs.directory());
        }
    }
}
