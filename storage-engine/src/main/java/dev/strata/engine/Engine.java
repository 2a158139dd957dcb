package dev.strata.engine;

import dev.strata.engine.cache.BlockCache;
import dev.strata.engine.checkpoint.Checkpoint;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.checkpoint.CheckpointRestore;
import dev.strata.engine.checkpoint.Checkpoints;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.checkpoint.DeltaChain;
import dev.strata.engine.checkpoint.DeltaIngest;
import dev.strata.engine.compaction.Backlog;
import dev.strata.engine.compaction.Compaction;
import dev.strata.engine.compaction.CompactionJob;
import dev.strata.engine.compaction.CompactionPicker;
import dev.strata.engine.compaction.ObsoleteEntryFilter;
import dev.strata.engine.compaction.TableOutputs;
import dev.strata.engine.compaction.ValueLogGcPolicy;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.iterator.MergingIterator;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.Lookup;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.sst.FilterStats;
import dev.strata.engine.sst.TableBuilder;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.LevelIterator;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.vlog.ValueLogs;
import dev.strata.engine.vlog.ValuePointer;
import dev.strata.engine.vlog.ValueSeparator;
import dev.strata.engine.wal.LogWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Strata's storage engine: an LSM tree of a memtable, a write-ahead log and leveled,
 * per-level compressed tables, in one directory. Keys and values are byte arrays; keys are
 * ordered as unsigned bytes.
 *
 * <p>Thread safety: every method may be called from any number of threads. Writes are
 * serialized through a queue whose head writes the log for everyone waiting (group commit);
 * reads never block writes. Flushes and compactions run on background threads.
 *
 * <p>Durability: with {@link WalMode#SYNC} a write that returned survives a machine crash;
 * see {@link WalMode} for the others. A write that threw may or may not be applied.
 *
 * <p>Errors: an I/O failure in the background (flush, compaction) is sticky: later writes
 * fail with it until the engine is reopened, while reads go on. Corruption is reported with
 * the file and offset; the engine never returns data that failed its checksum.
 *
 * <p>Typical use:
 * <pre>{@code
 * try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
 *     db.put(key, value);
 *     byte[] v = db.get(key);
 *     try (KeyValueIterator it = db.scan(from, to)) { it.forEachRemaining(kv -> ...); }
 * }
 * }</pre>
 */
public final class Engine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
    /** A commit group stops growing at this many bytes so one slow group does not delay later writers too much. */
    private static final int MAX_GROUP_BYTES = 1 << 20;
    /** Runs a look for recompression once writes may have paused (see {@link Backlog#IDLE_AFTER_FLUSH_NANOS}). */
    private static final Executor AFTER_IDLE_PERIOD = CompletableFuture.delayedExecutor(
            Backlog.IDLE_AFTER_FLUSH_NANOS + TimeUnit.MILLISECONDS.toNanos(50), TimeUnit.NANOSECONDS);

    private final Path dir;
    private final EngineOptions options;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final VersionSet versions;
    private final TableCache tableCache;
    private final FilterStats filterStats;
    private final BlockCache blockCache;
    private final ValueLogs valueLogs;
    private final ValueLogGcPolicy gcPolicy;
    private final Checkpoints checkpoints;
    private final DeltaChain deltas;
    private final ObsoleteFiles obsoleteFiles;
    private final CompactionPicker picker;
    private final SnapshotList snapshots = new SnapshotList();
    private final Statistics stats = new Statistics();
    private final ExecutorService flushExecutor;
    private final ExecutorService compactionExecutor;
    private final Object obsoleteFileLock = new Object();
    private volatile CompressionPolicy policy;

    // Everything below is guarded by mutex, except where noted.
    private final ReentrantLock mutex = new ReentrantLock();
    /** Signalled whenever background work finishes, a background error is set, or the engine closes. */
    private final Condition backgroundChanged = mutex.newCondition();
    private final ArrayDeque<Writer> writers = new ArrayDeque<>();
    private MemTable mem;
    private final List<MemTable> imms = new ArrayList<>(); // oldest first
    /** The memtables a reader sees; replaced (never mutated) under mutex, read without it. */
    private volatile MemTables memtables;
    /** The log the write leader appends to; touched only by the leader (or under mutex with no leader). */
    private LogWriter wal;
    /** The write leader's reusable buffer for encoding a group's log record. */
    private ByteSink groupRecord = new ByteSink(4096);
    /** Sequence of the last write handed to the memtable; the leader's counter. */
    private long lastSequence;
    /** Sequence of the newest write readers may see. */
    private volatile long visibleSequence;
    private final Set<Long> compactingFiles = new HashSet<>();
    private int runningCompactions;
    private int manualCompactions;
    private boolean flushRunning;
    /** The active memtable's fill (bytes over the write buffer size) when the last flush finished. */
    private volatile double activeFillAtLastFlushEnd;
    /** When the last flush finished, or the engine opened. Mutex. */
    private long lastFlushEndNanos = System.nanoTime();
    /** Threads in {@link #waitForCompactions()}: while any waits, recompression does not wait for idleness. Mutex. */
    private int settling;
    private volatile EngineException backgroundError;
    private volatile boolean closing;
    private boolean closed;

    /** The active and frozen memtables, newest first, as one immutable view. */
    private record MemTables(MemTable mem, List<MemTable> immsNewestFirst) {}

    /** A write waiting in the queue (or a memtable switch request when batch is null). */
    private static final class Writer {
        final WriteBatch batch;
        /** The sequence the caller chose for every operation of the batch, or 0 for "assign the next ones". */
        final long sequence;
        final Condition turn;
        boolean done;
        EngineException error;

        Writer(WriteBatch batch, long sequence, Condition turn) {
            this.batch = batch;
            this.sequence = sequence;
            this.turn = turn;
        }
    }

    private Engine(Path dir, EngineOptions options, FileChannel lockChannel, FileLock lock, VersionSet versions,
                   TableCache tableCache, FilterStats filterStats, BlockCache blockCache, ValueLogs valueLogs,
                   Checkpoints checkpoints, DeltaChain deltas) {
        this.dir = dir;
        this.options = options;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.versions = versions;
        this.tableCache = tableCache;
        this.filterStats = filterStats;
        this.blockCache = blockCache;
        this.valueLogs = valueLogs;
        this.checkpoints = checkpoints;
        this.deltas = deltas;
        this.obsoleteFiles = new ObsoleteFiles(dir, versions, tableCache, valueLogs);
        this.gcPolicy = new ValueLogGcPolicy(options.valueLogGarbageRatio(), options.valueLogSpaceAmplification());
        this.picker = new CompactionPicker(options);
        this.policy = options.compressionPolicy();
        String name = dir.getFileName() == null ? "root" : dir.getFileName().toString();
        this.flushExecutor = Executors.newSingleThreadExecutor(daemon("strata-flush-" + name));
        this.compactionExecutor = Executors.newFixedThreadPool(options.compactionThreads(), daemon("strata-compaction-" + name));
        versions.onVersionReleased(this::scheduleObsoleteFileDeletion);
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Opens the engine in {@code dir}, creating the directory and an empty database if needed,
     * and recovers from the manifest and write-ahead logs. Orphaned files of an interrupted
     * flush or compaction are deleted.
     *
     * @throws EngineException with {@link EngineException.Code#LOCKED} when another engine has
     *         the directory open, {@link EngineException.Code#CORRUPTION} when recovery finds
     *         damage it must not skip, or an I/O code
     */
    public static Engine open(Path dir, EngineOptions options) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        FileChannel lockChannel = null;
        FileLock lock = null;
        VersionSet versions = null;
        TableCache tableCache = null;
        ValueLogs valueLogs = null;
        DeltaChain deltas = null;
        try {
            Files.createDirectories(dir);
            Path valueLogDir = options.valueLogDirFor(dir);
            Files.createDirectories(valueLogDir);
            lockChannel = FileChannel.open(dir.resolve(FileNames.LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                lock = lockChannel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new EngineException(EngineException.Code.LOCKED, dir + " is in use by another engine");
            }
            deleteTempFiles(dir);
            versions = VersionSet.open(dir, valueLogDir, options.numLevels(), options.maxManifestFileSize());
            FilterStats filterStats = new FilterStats();
            BlockCache blockCache = new BlockCache(options.blockCacheSize());
            tableCache = new TableCache(dir, options.maxOpenTables(), filterStats, blockCache);
            valueLogs = new ValueLogs(valueLogDir, options.maxOpenTables());
            Checkpoints checkpoints = Checkpoints.open(dir, valueLogDir, options.checkpointsToKeep());
            deltas = DeltaChain.open(dir, valueLogDir);
            Engine engine = new Engine(dir, options, lockChannel, lock, versions, tableCache, filterStats, blockCache,
                    valueLogs, checkpoints, deltas);
            try {
                engine.recover();
            } catch (IOException | RuntimeException e) {
                engine.shutdownExecutors();
                throw e;
            }
            return engine;
        } catch (IOException | RuntimeException e) {
            closeQuietly(e, versions, tableCache, valueLogs, deltas, lockChannel);
            if (e instanceof EngineException ee) {
                throw ee;
            }
            if (e instanceof IOException io) {
                throw EngineException.io("opening " + dir, io);
            }
            throw (RuntimeException) e;
        }
    }

    private static void closeQuietly(Exception cause, AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r != null) {
                try {
                    r.close();
                } catch (Exception e) {
                    cause.addSuppressed(e);
                }
            }
        }
    }

    private static void deleteTempFiles(Path dir) throws IOException {
        try (var names = Files.list(dir)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                FileNames.Parsed parsed = FileNames.parse(p.getFileName().toString());
                if (parsed != null && parsed.kind() == FileNames.Kind.TEMP) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * Replays the logs newer than the manifest's log number into a memtable, then starts a fresh
     * log. The replayed memtable is flushed as an L0 table, or, with
     * {@link EngineOptions#flushAfterRecovery()} off and a clean replay, kept as the active
     * memtable: the manifest's log number stays, so the replayed logs stay live until its flush.
     */
    private void recover() throws IOException {
        WalReplay replay = WalReplay.run(dir, versions.logNumber(), versions.lastSequence(), options.walRecovery());
        lastSequence = Math.max(versions.lastSequence(), replay.lastSequence());
        visibleSequence = lastSequence;
        MemTable recovered = replay.memTable();
        boolean keep = !recovered.isEmpty() && !options.flushAfterRecovery() && replay.clean()
                && options.walMode() != WalMode.DISABLED;

        // Without a log the number is never a file's, but moving the log number past every
        // replayed log still lets them be deleted.
        long newWal = versions.newFileNumber();
        if (options.walMode() != WalMode.DISABLED) {
            wal = LogWriter.create(FileNames.wal(dir, newWal));
            VersionSet.syncDirectory(dir);
        }
        if (keep) {
            mem = recovered;
        } else {
            flushRecovered(recovered, newWal);
            mem = new MemTable(newWal);
        }
        publishMemTables();
        obsoleteFiles.delete();
        LOG.info("opened {}: {} (replayed {} log records{}, last sequence {})", dir, versions.current(),
                replay.records(), keep ? ", kept in the memtable" : "", lastSequence);
        mutex.lock();
        try {
            scheduleAfterFlushes(); // the open's flush of the replayed log may have been provisional
        } finally {
            mutex.unlock();
        }
    }

    /** Writes the replayed memtable as an L0 table (if it holds anything) and moves the log number to {@code newWal}. */
    private void flushRecovered(MemTable recovered, long newWal) throws IOException {
        long coveredBefore = versions.lastSequence();
        VersionEdit.Builder edit = VersionEdit.builder().logNumber(newWal).lastSequence(lastSequence);
        if (!recovered.isEmpty()) {
            Version base = versions.acquireCurrent();
            try {
                try (InternalIterator entries = recovered.iterator()) {
                    // Everything waits for the open: an adaptive policy's faster codec, if it has one.
                    writeLevel0(entries, base, lastSequence, edit, true);
                }
            } finally {
                versions.release(base);
            }
            syncOutputDirectories();
        }
        if (recovered.appliedMarker() != null) {
            edit.appliedMarker(recovered.appliedMarker());
        }
        commitFlush(edit.build(), coveredBefore);
    }

    // ---------------------------------------------------------------- writes

    /** Sets {@code key} to {@code value}. */
    public void put(byte[] key, byte[] value) {
        write(new WriteBatch().put(key, value));
    }

    /** Removes {@code key}; removing an absent key is not an error. */
    public void delete(byte[] key) {
        write(new WriteBatch().delete(key));
    }

    /**
     * Applies {@code batch} atomically. With {@link WalMode#SYNC} it is durable when this
     * returns. May block while the engine stalls writes for flushes or compactions to catch up.
     *
     * @throws EngineException on an I/O error, a sticky background error, or a closed engine
     */
    public void write(WriteBatch batch) {
        Objects.requireNonNull(batch, "batch");
        if (batch.isEmpty()) {
            return;
        }
        enqueue(new Writer(batch, 0, mutex.newCondition()));
    }

    /**
     * Applies {@code batch} atomically with every operation at {@code sequence}, a number the
     * caller chose: the Strata server passes the Raft index, so every replica's tables carry the
     * same sequence numbers and files shipped between replicas can be ordered by them. Later
     * operations on the same key in the batch win. A batch with only an applied marker still
     * moves the engine's sequence to {@code sequence}.
     *
     * @throws EngineException with {@link EngineException.Code#INVALID_ARGUMENT} when
     *         {@code sequence} is not above every sequence used so far
     */
    public void write(WriteBatch batch, long sequence) {
        Objects.requireNonNull(batch, "batch");
        if (sequence <= 0 || sequence > InternalKey.MAX_SEQUENCE) {
            throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "sequence " + sequence
                    + " is outside [1, " + InternalKey.MAX_SEQUENCE + "]");
        }
        enqueue(new Writer(batch, sequence, mutex.newCondition()));
    }

    private void enqueue(Writer w) {
        mutex.lock();
        try {
            writers.addLast(w);
            while (!w.done && writers.peekFirst() != w) {
                w.turn.awaitUninterruptibly();
            }
            if (w.done) {
                if (w.error != null) {
                    throw w.error;
                }
                return;
            }
            lead(w);
        } finally {
            mutex.unlock();
        }
        if (w.error != null) {
            throw w.error;
        }
    }

    /**
     * Runs one commit group with {@code leader} at the head of the queue: makes room, writes
     * the log record (one fsync for the group in SYNC mode) and the memtable, then wakes the
     * group's writers and the next leader. Called with mutex held; releases it during I/O.
     */
    private void lead(Writer leader) {
        List<Writer> group = new ArrayList<>();
        EngineException error = null;
        try {
            makeRoomForWrite(leader.batch == null);
            if (leader.batch != null) {
                int bytes = 0;
                int count = 0;
                byte[] marker = null;
                for (Writer w : writers) {
                    // A batch with its own sequence is a group of its own.
                    boolean fits = group.isEmpty() || (w.sequence == 0 && leader.sequence == 0
                            && bytes + w.batch.approximateSizeInBytes() <= MAX_GROUP_BYTES);
                    if (w.batch == null || !fits) {
                        break;
                    }
                    group.add(w);
                    bytes += w.batch.approximateSizeInBytes();
                    count += w.batch.count();
                    if (w.batch.appliedMarker() != null) {
                        marker = w.batch.appliedMarker();
                    }
                }
                boolean shared = leader.sequence != 0;
                if (shared && leader.sequence <= lastSequence) {
                    throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "sequence " + leader.sequence
                            + " is not above the last one used, " + lastSequence);
                }
                long first = shared ? leader.sequence : lastSequence + 1;
                long last = shared ? leader.sequence : lastSequence + count;
                lastSequence = last;
                MemTable target = mem;
                LogWriter log = wal;
                mutex.unlock();
                try {
                    error = writeGroup(group, first, count, shared, marker, target, log);
                } finally {
                    mutex.lock();
                }
                if (error == null) {
                    visibleSequence = last;
                } else {
                    setBackgroundError(error); // the log may hold a partial record: no more writes
                }
            } else {
                group.add(leader);
            }
        } catch (EngineException e) {
            error = e;
            if (group.isEmpty()) {
                group.add(leader);
            }
        }
        for (Writer w : group) {
            Writer head = writers.pollFirst();
            assert head == w;
            w.done = true;
            w.error = error;
            w.turn.signal();
        }
        Writer next = writers.peekFirst();
        if (next != null) {
            next.turn.signal();
        }
    }

    /**
     * Logs and applies one group; returns the error instead of throwing so the caller can finish
     * the group. Only the write leader runs this, so it may reuse {@link #groupRecord}.
     */
    private EngineException writeGroup(List<Writer> group, long first, int count, boolean shared, byte[] marker,
                                       MemTable target, LogWriter log) {
        try {
            if (log != null) {
                ByteSink record = groupRecord;
                record.reset();
                WalRecord.encodeHeader(record, first, count, shared, marker);
                for (Writer w : group) {
                    for (WriteBatch.Op op : w.batch.ops()) {
                        WalRecord.encodeOp(record, op);
                    }
                }
                log.addRecord(record.array(), 0, record.size());
                if (options.walMode() == WalMode.SYNC) {
                    log.sync();
                    stats.walSyncs.increment();
                }
                stats.walBytes.add(record.size());
                if (record.array().length > 4 * MAX_GROUP_BYTES) {
                    groupRecord = new ByteSink(4096); // do not keep a huge buffer after one huge batch
                }
            }
        } catch (IOException e) {
            return EngineException.io("writing log " + log.path(), e);
        }
        long sequence = first;
        for (Writer w : group) {
            WalRecord.insert(target, w.batch.ops(), sequence, shared);
            sequence += w.batch.count();
            if (w.batch.appliedMarker() != null) {
                target.setAppliedMarker(w.batch.appliedMarker());
            }
            stats.userBytes.add(w.batch.userBytes());
        }
        return null;
    }

    /**
     * Called by the write leader with mutex held. Delays or stalls the write while L0 or the
     * compaction debt is over its limits, and freezes the memtable when it is full (or when
     * {@code force} asks for a flush).
     */
    private void makeRoomForWrite(boolean force) {
        boolean allowDelay = !force;
        while (true) {
            checkWritable();
            Version v = versions.current();
            int level0 = v.files(0).size();
            long pending = picker.pendingCompactionBytes(v);
            if (allowDelay && (level0 >= options.level0SlowdownTrigger() || pending >= options.softPendingCompactionBytes())) {
                // Delay this write by about 1 ms rather than let L0 hit the stop limit and stall
                // writers for seconds: it hands the CPU to compaction and spreads the delay out.
                long start = System.nanoTime();
                awaitBackground(1);
                stats.stallSlowdowns.increment();
                stats.stallMicros.add((System.nanoTime() - start) / 1000);
                allowDelay = false;
            } else if (!force && mem.approximateBytes() < options.writeBufferSize()) {
                return;
            } else if (force && mem.isEmpty() && mem.appliedMarker() == null) {
                return; // nothing to flush
            } else if (imms.size() >= options.maxImmutableMemtables()) {
                stall("memtables full, waiting for flush");
            } else if (level0 >= options.level0StopTrigger() || pending >= options.hardPendingCompactionBytes()) {
                stall("L0 has " + level0 + " files / " + pending + " bytes pending compaction, waiting for compaction");
            } else {
                switchMemTable();
                return;
            }
        }
    }

    private void stall(String why) {
        long start = System.nanoTime();
        stats.stallStops.increment();
        stats.writesStopped = true;
        LOG.debug("write stall: {}", why);
        awaitBackground(0);
        stats.writesStopped = false;
        stats.stallMicros.add((System.nanoTime() - start) / 1000);
    }

    /** Waits on background progress, at most {@code millis} ms (0 = until signalled). Mutex held. */
    private void awaitBackground(long millis) {
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

    private void checkWritable() {
        if (closing) {
            throw new EngineException(EngineException.Code.CLOSED, "engine at " + dir + " is closed");
        }
        EngineException bg = backgroundError;
        if (bg != null) {
            throw new EngineException(bg.code(), "writes stopped after a background error: " + bg.getMessage(), bg);
        }
    }

    /** Freezes the memtable and starts a new one with a new log. Mutex held, no write in flight. */
    private void switchMemTable() {
        long newWalNumber = mem.walNumber(); // without a log the number stays
        LogWriter newWal = null;
        if (options.walMode() != WalMode.DISABLED) {
            newWalNumber = versions.newFileNumber();
            try {
                newWal = LogWriter.create(FileNames.wal(dir, newWalNumber));
                if (options.walMode() == WalMode.SYNC) {
                    VersionSet.syncDirectory(dir); // the new log's name must survive a crash too
                }
                wal.close();
            } catch (IOException e) {
                EngineException error = EngineException.io("starting log " + newWalNumber, e);
                setBackgroundError(error);
                throw error;
            }
        }
        wal = newWal;
        imms.add(mem);
        mem = new MemTable(newWalNumber);
        publishMemTables();
        scheduleFlush();
    }

    private void publishMemTables() {
        List<MemTable> newestFirst = new ArrayList<>(imms);
        Collections.reverse(newestFirst);
        memtables = new MemTables(mem, List.copyOf(newestFirst));
    }

    private void setBackgroundError(EngineException e) {
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

    // ---------------------------------------------------------------- background work

    private void scheduleFlush() {
        if (flushRunning || imms.isEmpty() || closed) {
            return;
        }
        flushRunning = true;
        flushExecutor.execute(this::flushImmutables);
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
                if (imms.isEmpty() || backgroundError != null) {
                    flushRunning = false;
                    backgroundChanged.signalAll();
                    scheduleAfterFlushes();
                    return;
                }
                batch = List.copyOf(imms);
                nextWalNumber = mem.walNumber(); // every log before the active memtable's is flushed with the batch
                smallestSnapshot = snapshots.oldest(visibleSequence);
            } finally {
                mutex.unlock();
            }
            try {
                flush(batch, nextWalNumber, smallestSnapshot);
            } catch (IOException e) {
                setBackgroundError(EngineException.io("flushing memtable", e));
            } catch (EngineException e) {
                setBackgroundError(e);
            } catch (RuntimeException | LinkageError e) {
                // A LinkageError comes from a codec whose native library cannot load (zstd-jni unpacks
                // it on first use; a full temporary directory fails that). It must end as a failed
                // flush: a dead flush thread would leave every writer and close waiting for it.
                setBackgroundError(new EngineException(EngineException.Code.IO_ERROR, "flush failed: " + e, e));
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
                    Backlog.flushBehind(batch.size(), base, options, activeFillAtLastFlushEnd));
        } finally {
            versions.release(base);
        }
        syncOutputDirectories();
        VersionEdit built = edit.build();
        commitFlush(built, coveredBefore);
        stats.flushes.increment();
        if (LOG.isDebugEnabled()) {
            LOG.debug("flushed {} memtables of {} entries in {} ms: {}", batch.size(),
                    batch.stream().mapToInt(MemTable::size).sum(), (System.nanoTime() - start) / 1_000_000, built);
        }
        mutex.lock();
        try {
            imms.removeAll(batch);
            publishMemTables();
            activeFillAtLastFlushEnd = (double) mem.approximateBytes() / options.writeBufferSize();
            lastFlushEndNanos = System.nanoTime();
        } finally {
            mutex.unlock();
        }
        obsoleteFiles.delete(); // the flushed memtables' logs, before anyone waiting on the flush is woken
        enforceDeltaBudget();
        mutex.lock();
        try {
            backgroundChanged.signalAll();
            maybeScheduleCompaction();
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
    private void writeLevel0(InternalIterator entries, Version base, long smallestSnapshot, VersionEdit.Builder edit,
                             boolean behind) throws IOException {
        CompressionPolicy p = policy;
        TableOutputs outputs = new TableOutputs(dir, versions, level0TableOptions(base, p), Long.MAX_VALUE, List.of(),
                Long.MAX_VALUE);
        ValueSeparator values = newValueSeparator(Set.of(), p, ValueLogFileCreated.Job.FLUSH, p.longLivedCodec(behind),
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

    /** How a new L0 table (a flush's, a rewritten ingested one) is written over {@code base}. */
    private TableBuilder.Options level0TableOptions(Version base, CompressionPolicy p) {
        return new TableBuilder.Options(options.blockSize(), options.blockRestartInterval(), options.bloomBitsPerKey(),
                p.codecFor(0, base.deepestNonEmptyLevel() <= 0), p.zstdLevel());
    }

    /**
     * Applies a flush's (or an ingest's) edit and keeps its outputs as a delta of the incremental
     * chain covering {@code (coveredBefore, edit.lastSequence]}: linked before the edit, while
     * no compaction can take them yet, recorded after it. The chain is an optimisation for
     * replicas catching up: a failure to keep it is logged and leaves the chain to restart.
     */
    private void commitFlush(VersionEdit edit, long coveredBefore) throws IOException {
        boolean keepDelta = options.deltaRetention() > 0;
        if (keepDelta) {
            try {
                deltas.linkFiles(dir, valueLogs.directory(), edit.newFiles(), edit.newValueLogs());
            } catch (IOException e) {
                LOG.warn("cannot keep the flush outputs as a delta ({}); the incremental chain restarts", e.toString());
                keepDelta = false;
                deltas.clear();
            }
        }
        versions.logAndApply(edit);
        if (keepDelta) {
            try {
                deltas.append(new Delta(coveredBefore, edit.lastSequence(), edit.appliedMarker(), edit.newFiles(),
                        edit.newValueLogs()));
            } catch (IOException e) {
                LOG.warn("cannot record a delta ({}); the incremental chain restarts", e.toString());
                deltas.clear();
            }
        }
    }

    /**
     * Releases the oldest deltas while the bytes only the chain holds exceed the budget. Run
     * after obsolete files are deleted: that is when a compacted-away table becomes the chain's
     * alone.
     */
    private void enforceDeltaBudget() {
        try {
            deltas.enforceBudget((long) (options.deltaRetention() * versions.current().liveBytesEstimate()));
        } catch (IOException e) {
            LOG.warn("cannot trim the incremental chain: {}", e.toString());
        }
    }

    /**
     * A value separator for one flush or compaction job that compresses values with {@code codec}
     * and, if {@code recompress}, recompresses the provisional records it relocates.
     */
    private ValueSeparator newValueSeparator(Set<ValueLogId> relocate, CompressionPolicy p, ValueLogFileCreated.Job job,
                                             Codec codec, boolean recompress) {
        return new ValueSeparator(valueLogs.directory(), versions.origin(), versions::newPendingOutput,
                versions::releasePendingOutput, valueLogs,
                options.valueLogEnabled() ? options.minBlobSize() : Integer.MAX_VALUE, relocate, codec,
                p.zstdLevel(), p.provisionalCodec(), recompress, options.valueLogFileSize(),
                (file, relocated) -> tellListener(new ValueLogFileCreated(file, job, relocated)));
    }

    /** A listener's failure is its own: logged, and the job goes on. */
    private void tellListener(ValueLogFileCreated event) {
        try {
            options.eventListener().onValueLogFileCreated(event);
        } catch (RuntimeException e) {
            LOG.warn("event listener failed on {}", event, e);
        }
    }

    /** New files' directory entries must be durable before the manifest edit that names them. */
    private void syncOutputDirectories() throws IOException {
        VersionSet.syncDirectory(dir);
        if (!valueLogs.directory().equals(dir)) {
            VersionSet.syncDirectory(valueLogs.directory());
        }
    }

    /** Starts compactions while threads are free and some level needs one. Mutex held. */
    private void maybeScheduleCompaction() {
        if (closing || backgroundError != null || manualCompactions > 0) {
            return;
        }
        while (runningCompactions < options.compactionThreads()) {
            Version base = versions.acquireCurrent();
            Set<ValueLogId> recompress = policy.provisionalCodec() != null && Backlog.idle(imms.size(), flushRunning,
                    runningCompactions, System.nanoTime() - lastFlushEndNanos, settling > 0)
                    ? gcPolicy.provisionalCandidates(base) : Set.of();
            Compaction c = picker.pick(base, compactingFiles, policy, gcPolicy, gcPolicy.candidates(base), recompress);
            if (c == null) {
                versions.release(base);
                return;
            }
            markBusy(c);
            try {
                compactionExecutor.execute(() -> runCompaction(c, base));
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
    private void scheduleAfterFlushes() {
        maybeScheduleCompaction();
        if (policy.provisionalCodec() != null) {
            AFTER_IDLE_PERIOD.execute(this::maybeScheduleCompactionLocked);
        }
    }

    private void maybeScheduleCompactionLocked() {
        mutex.lock();
        try {
            maybeScheduleCompaction();
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

    private void runCompaction(Compaction c, Version base) {
        try {
            executeCompaction(c, base);
        } catch (EngineException e) {
            if (closing && e.code() == EngineException.Code.CLOSED) {
                LOG.debug("{} abandoned: closing", c);
            } else {
                setBackgroundError(e);
            }
        } catch (IOException e) {
            setBackgroundError(EngineException.io("compaction " + c, e));
        } catch (RuntimeException | LinkageError e) { // a codec's native library that cannot load: see flushImmutables
            setBackgroundError(new EngineException(EngineException.Code.IO_ERROR, "compaction " + c + " failed: " + e, e));
        } finally {
            versions.release(base);
            obsoleteFiles.delete(); // before signalling: a settled engine holds no obsolete files
            enforceDeltaBudget();
            mutex.lock();
            try {
                unmarkBusy(c);
                backgroundChanged.signalAll();
                maybeScheduleCompaction();
            } finally {
                mutex.unlock();
            }
        }
    }

    /** Runs {@code c} and applies its edit; returns the output files. */
    private List<FileMetadata> executeCompaction(Compaction c, Version base) throws IOException {
        long smallestSnapshot;
        mutex.lock();
        try {
            smallestSnapshot = snapshots.oldest(visibleSequence);
        } finally {
            mutex.unlock();
        }
        CompressionPolicy p = policy;
        boolean recompress = c.reason() == Compaction.Reason.RECOMPRESS;
        Set<ValueLogId> relocate = gcPolicy.candidates(base);
        if (recompress) {
            relocate = new HashSet<>(relocate);
            relocate.addAll(gcPolicy.provisionalCandidates(base));
        }
        ValueSeparator values = newValueSeparator(relocate, p, ValueLogFileCreated.Job.COMPACTION, p.longLivedCodec(),
                recompress);
        CompactionJob.Result r = new CompactionJob(dir, versions, tableCache, options)
                .run(c, base, smallestSnapshot, p, values, () -> closing);
        if (!c.trivialMove()) {
            syncOutputDirectories();
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

    private void scheduleObsoleteFileDeletion() {
        try {
            flushExecutor.execute(obsoleteFiles::delete);
        } catch (RejectedExecutionException e) {
            // closing: close() runs a final deletion pass itself
        }
    }

    // ---------------------------------------------------------------- reads

    /** The value of {@code key}, or null when absent. */
    public byte[] get(byte[] key) {
        Objects.requireNonNull(key, "key");
        checkOpen();
        return getAt(key, visibleSequence);
    }

    private byte[] getAt(byte[] key, long sequence) {
        MemTables view = memtables;
        Lookup r = view.mem().get(key, sequence);
        for (int i = 0; !r.isDecided() && i < view.immsNewestFirst().size(); i++) {
            r = view.immsNewestFirst().get(i).get(key, sequence);
        }
        if (!r.isDecided()) {
            // The version is taken after the memtables: a memtable leaves the view only after
            // its table is in the current version, so nothing can fall between the two.
            Version v = versions.acquireCurrent();
            try {
                r = v.get(key, sequence, tableCache);
                if (r.state() == Lookup.State.FOUND_POINTER) {
                    return resolve(key, r.value()); // while v pins the value log
                }
            } finally {
                versions.release(v);
            }
        }
        return r.state() == Lookup.State.FOUND ? r.value().clone() : null;
    }

    /** The value a pointer entry for {@code userKey} points at. */
    private byte[] resolve(byte[] userKey, byte[] encodedPointer) {
        ValuePointer p;
        try {
            p = ValuePointer.decode(encodedPointer);
        } catch (ByteReader.MalformedException e) {
            throw new EngineException(EngineException.Code.CORRUPTION, "value pointer for key "
                    + HexFormat.of().formatHex(userKey) + " is malformed: " + e.getMessage());
        }
        return valueLogs.read(p, userKey);
    }

    /**
     * Iterates the keys in {@code [fromInclusive, toExclusive)} (null bounds are open) in
     * unsigned-byte order, as of now. Close the iterator: it pins files until then.
     */
    public KeyValueIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return scanAt(fromInclusive, toExclusive, visibleSequence);
    }

    private KeyValueIterator scanAt(byte[] from, byte[] to, long sequence) {
        MemTables view = memtables;
        Version v = versions.acquireCurrent();
        try {
            List<InternalIterator> children = new ArrayList<>();
            children.add(view.mem().iterator());
            view.immsNewestFirst().forEach(m -> children.add(m.iterator()));
            for (FileMetadata f : v.files(0)) {
                if (f.overlaps(from, to)) {
                    children.add(tableCache.iterator(f));
                }
            }
            for (int level = 1; level < v.numLevels(); level++) {
                List<FileMetadata> files = v.overlapping(level, from, to);
                if (!files.isEmpty()) {
                    children.add(new LevelIterator(files, tableCache));
                }
            }
            return new DbIterator(new MergingIterator(children), sequence, from, to, this::resolve,
                    () -> versions.release(v));
        } catch (RuntimeException e) {
            versions.release(v);
            throw e;
        }
    }

    /** A consistent read view as of now; close it so compaction may drop what only it could see. */
    public Snapshot snapshot() {
        checkOpen();
        mutex.lock();
        try {
            long seq = visibleSequence;
            snapshots.add(seq);
            return new EngineSnapshot(seq);
        } finally {
            mutex.unlock();
        }
    }

    private final class EngineSnapshot implements Snapshot {
        private final long sequence;
        private boolean released;

        EngineSnapshot(long sequence) {
            this.sequence = sequence;
        }

        @Override
        public long sequence() {
            return sequence;
        }

        @Override
        public byte[] get(byte[] key) {
            Objects.requireNonNull(key, "key");
            checkLive();
            return getAt(key, sequence);
        }

        @Override
        public KeyValueIterator scan(byte[] fromInclusive, byte[] toExclusive) {
            checkLive();
            return scanAt(fromInclusive, toExclusive, sequence);
        }

        private synchronized void checkLive() {
            if (released) {
                throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "snapshot " + sequence + " is closed");
            }
            checkOpen();
        }

        @Override
        public synchronized void close() {
            if (!released) {
                released = true;
                snapshots.remove(sequence);
            }
        }
    }

    private void checkOpen() {
        if (closing) {
            throw new EngineException(EngineException.Code.CLOSED, "engine at " + dir + " is closed");
        }
    }

    // ---------------------------------------------------------------- maintenance

    /**
     * Writes the memtable (if it holds anything) to a table and waits until every frozen
     * memtable is flushed, so everything written before this call is in table files and the
     * newest applied marker is durable.
     */
    public void flush() {
        checkOpen();
        Writer w = new Writer(null, 0, mutex.newCondition());
        mutex.lock();
        try {
            writers.addLast(w);
            while (!w.done && writers.peekFirst() != w) {
                w.turn.awaitUninterruptibly();
            }
            lead(w);
            if (w.error != null) {
                throw w.error;
            }
            while (!imms.isEmpty()) {
                checkWritable();
                awaitBackground(0);
            }
            checkWritable();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Compacts every file overlapping the user keys {@code [from, to]} (null = open) down to the
     * deepest level that holds data, after flushing the memtable, then rewrites that bottom
     * range in place unless this call just wrote it; waits until done. Afterwards the range
     * holds one version per key (plus those open snapshots need) and no tombstones.
     */
    public void compactRange(byte[] from, byte[] to) {
        flush();
        mutex.lock();
        try {
            manualCompactions++;
            try {
                while (runningCompactions > 0) {
                    checkWritable();
                    awaitBackground(0);
                }
                int target = Math.max(1, versions.current().deepestNonEmptyLevel());
                Set<Long> written = new HashSet<>();
                for (int level = 0; level < target; level++) {
                    int l = level;
                    runManual(base -> picker.pickManual(base, l, from, to, compactingFiles, policy), written);
                }
                Version v = versions.current();
                boolean bottomJustWritten = v.overlapping(target, from, to).stream().allMatch(f -> written.contains(f.number()));
                if (!bottomJustWritten) {
                    runManual(base -> picker.pickManualInPlace(base, target, from, to), written);
                }
            } finally {
                manualCompactions--;
                backgroundChanged.signalAll();
                maybeScheduleCompaction();
            }
        } finally {
            mutex.unlock();
        }
        obsoleteFiles.delete();
        enforceDeltaBudget();
    }

    /** Runs one manual compaction on this thread (mutex held on entry and exit); adds its outputs to {@code written}. */
    private void runManual(Function<Version, Compaction> pick, Set<Long> written) {
        checkWritable();
        Version base = versions.acquireCurrent();
        Compaction c = pick.apply(base);
        if (c == null) {
            versions.release(base);
            return;
        }
        markBusy(c);
        mutex.unlock();
        try {
            executeCompaction(c, base).forEach(f -> written.add(f.number()));
        } catch (IOException e) {
            throw EngineException.io("manual compaction " + c, e);
        } finally {
            versions.release(base);
            mutex.lock();
            unmarkBusy(c);
        }
    }

    /**
     * Waits until no flush or compaction is running and none is due: every level is under its
     * target, no value-log file awaits garbage collection that a compaction could do, and, with
     * an adaptive compression policy, no provisional record awaits recompression. For
     * tests and benchmarks that measure a settled engine (RocksDB's {@code WaitForCompact}).
     *
     * @throws EngineException when background work failed or the engine closed meanwhile
     */
    public void waitForCompactions() {
        mutex.lock();
        settling++; // recompression need not wait for writes to pause: the caller waits for it
        try {
            while (true) {
                checkWritable();
                maybeScheduleCompaction();
                if (!flushRunning && imms.isEmpty() && runningCompactions == 0) {
                    return;
                }
                awaitBackground(0);
            }
        } finally {
            settling--;
            mutex.unlock();
        }
    }

    /**
     * Reads everything the current version holds and checks it: every table block's checksum,
     * every separated value's record (checksum, key) and, per value-log file, that the record
     * bytes the tables point to equal the live bytes the manifest counts (garbage accounting is
     * exact, so they must). Reads the whole database: an operator's and a test's tool.
     *
     * @throws CorruptionException when stored data is damaged
     * @throws EngineException with code CORRUPTION when the value-log accounting does not match
     */
    public VerifyReport verify() {
        checkOpen();
        Version v = versions.acquireCurrent();
        try {
            return IntegrityCheck.run(v, tableCache, this::resolve);
        } finally {
            versions.release(v);
        }
    }

    /**
     * Takes a checkpoint: flushes the memtable, then pins (by hard links) every table and value
     * log of the current version with the sequence and applied marker durable in them. The
     * newest {@code checkpointsToKeep} checkpoints are kept; older ones go once nobody pins them.
     * Taking one when nothing was written since the last returns that one.
     */
    public Checkpoint checkpoint() {
        flush();
        VersionSet.Durable d = versions.acquireDurable();
        try {
            List<VersionEdit.NewFile> tables = new ArrayList<>();
            for (int level = 0; level < d.version().numLevels(); level++) {
                for (FileMetadata f : d.version().files(level)) {
                    tables.add(new VersionEdit.NewFile(level, f));
                }
            }
            CheckpointManifest m = new CheckpointManifest(d.lastSequence(), d.appliedMarker(), d.origin(), tables,
                    List.copyOf(d.version().valueLogs().values()));
            return checkpoints.create(m);
        } catch (IOException e) {
            throw EngineException.io("taking a checkpoint in " + dir, e);
        } finally {
            versions.release(d.version());
        }
    }

    /** The newest checkpoint kept, or null. */
    public Checkpoint latestCheckpoint() {
        return checkpoints.latest();
    }

    /** The checkpoints kept, oldest first. */
    public List<Checkpoint> checkpoints() {
        return checkpoints.all();
    }

    /** The incremental chain of flush outputs (empty when {@code deltaRetention} is 0). */
    public DeltaChain deltaChain() {
        return deltas;
    }

    /**
     * Adds received deltas (their files staged in {@code staging} under their names) as L0
     * tables. The memtable is flushed first, and no write runs meanwhile; sequence numbers, which
     * every replica shares, then order the new tables against the local ones. The deltas may
     * start before this engine's last sequence: the writes it already holds are left out (see
     * {@link DeltaIngest}). On success the engine holds every write up to the last delta's end
     * and its applied marker is durable.
     *
     * @throws EngineException with code INVALID_ARGUMENT when the first delta starts after what
     *         this engine holds (a gap) or the deltas are not contiguous; CORRUPTION when a
     *         staged file does not match its content id. The engine is unchanged then.
     */
    public void ingest(Path staging, List<Delta> received) {
        checkOpen();
        runExclusive(() -> {
            makeRoomForWrite(true);
            while (!imms.isEmpty()) {
                checkWritable();
                awaitBackground(0);
            }
            if (received.isEmpty() || received.get(0).fromExclusive() > lastSequence) {
                throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "deltas start after sequence "
                        + (received.isEmpty() ? "?" : received.get(0).fromExclusive()) + " but this engine holds only up to "
                        + lastSequence);
            }
            long holdsUpTo = lastSequence;
            mutex.unlock();
            long to;
            try {
                to = ingestStaged(staging, received, holdsUpTo);
            } finally {
                mutex.lock();
            }
            lastSequence = Math.max(lastSequence, to);
            visibleSequence = lastSequence;
            maybeScheduleCompaction();
        });
    }

    private long ingestStaged(Path staging, List<Delta> received, long holdsUpTo) {
        Version current = versions.acquireCurrent();
        try {
            long coveredBefore = versions.lastSequence();
            DeltaIngest.Result r = DeltaIngest.stage(staging, received, holdsUpTo, dir, valueLogs.directory(), versions,
                    current, level0TableOptions(current, policy));
            VersionEdit.Builder edit = VersionEdit.builder().lastSequence(Math.max(r.toSequence(), coveredBefore));
            if (r.appliedMarker() != null) {
                edit.appliedMarker(r.appliedMarker());
            }
            r.tables().forEach(t -> edit.addFile(0, t.file()));
            r.valueLogs().forEach(edit::addValueLog);
            r.garbage().forEach(edit::addGarbage);
            try {
                commitFlush(edit.build(), coveredBefore);
            } catch (IOException | RuntimeException e) {
                DeltaIngest.release(versions, r);
                throw e;
            }
            LOG.info("ingested {} deltas up to sequence {}: {} tables, {} value logs", received.size(), r.toSequence(),
                    r.tables().size(), r.valueLogs().size());
            return r.toSequence();
        } catch (IOException e) {
            throw EngineException.io("ingesting deltas from " + staging, e);
        } finally {
            versions.release(current);
        }
    }

    /** An action run at the head of the write queue: no write runs meanwhile. */
    @FunctionalInterface
    private interface ExclusiveAction {
        void run();
    }

    /** Runs {@code action} with mutex held and the write queue held by this thread. */
    private void runExclusive(ExclusiveAction action) {
        Writer w = new Writer(null, 0, mutex.newCondition());
        mutex.lock();
        try {
            writers.addLast(w);
            while (writers.peekFirst() != w) {
                w.turn.awaitUninterruptibly();
            }
            try {
                action.run();
            } finally {
                writers.pollFirst();
                Writer next = writers.peekFirst();
                if (next != null) {
                    next.turn.signal();
                }
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Seeds an empty data directory from a checkpoint's files: a backup directory, or the files a
     * node received. Every file is verified against its content id; the new database gets its
     * own origin id. Open it with {@link #open} afterwards.
     *
     * @param from    a directory holding {@code CHECKPOINT} and every file it lists
     * @param move    move the files rather than copy them (for a staging directory)
     * @param dataDir must hold no engine files
     * @return the restored checkpoint's description (its sequence and applied marker)
     */
    public static CheckpointManifest restoreCheckpoint(Path from, boolean move, Path dataDir, EngineOptions options) {
        try {
            return CheckpointRestore.restore(from, move, dataDir, options.valueLogDirFor(dataDir));
        } catch (IOException e) {
            throw EngineException.io("restoring a checkpoint from " + from + " into " + dataDir, e);
        }
    }

    /** New tables use {@code newPolicy} from now on; existing tables stay readable as written. */
    public void setCompressionPolicy(CompressionPolicy newPolicy) {
        this.policy = Objects.requireNonNull(newPolicy, "policy");
    }

    public CompressionPolicy compressionPolicy() {
        return policy;
    }

    /**
     * The newest applied marker that is durable in flushed files (see
     * {@link WriteBatch#setAppliedMarker}), or null when none was ever flushed.
     */
    public byte[] appliedMarker() {
        byte[] m = versions.appliedMarker();
        return m == null ? null : m.clone();
    }

    /**
     * The marker of the newest batch applied, whether flushed or still only in a memtable and the
     * logs, or null when none. Differs from {@link #appliedMarker()} after writes that are not
     * flushed yet, such as those an open kept in the memtable ({@link EngineOptions#flushAfterRecovery()}).
     */
    public byte[] lastAppliedMarker() {
        MemTables m = memtables;
        byte[] marker = m.mem().appliedMarker();
        for (int i = 0; marker == null && i < m.immsNewestFirst().size(); i++) {
            marker = m.immsNewestFirst().get(i).appliedMarker();
        }
        return marker != null ? marker.clone() : appliedMarker();
    }

    public Path directory() {
        return dir;
    }

    /** The sequence of the newest write readers see (with chosen sequences: the newest Raft index written). */
    public long lastSequence() {
        return visibleSequence;
    }

    public EngineOptions options() {
        return options;
    }

    /** Counters and sizes; cheap enough to call every few seconds (it lists the directory). */
    public EngineStats stats() {
        checkOpen();
        Version v = versions.acquireCurrent();
        try {
            List<EngineStats.LevelStats> levels = new ArrayList<>();
            for (int l = 0; l < v.numLevels(); l++) {
                long raw = 0;
                for (FileMetadata f : v.files(l)) {
                    raw += f.rawDataBytes();
                }
                levels.add(new EngineStats.LevelStats(l, v.files(l).size(), v.levelBytes(l), raw));
            }
            MemTables view = memtables;
            long memBytes = view.mem().approximateBytes();
            for (MemTable m : view.immsNewestFirst()) {
                memBytes += m.approximateBytes();
            }
            List<EngineStats.ValueLogStats> logs = new ArrayList<>();
            for (var f : v.valueLogs().values()) {
                logs.add(new EngineStats.ValueLogStats(f.metadata().id().fileName(), f.metadata().fileSize(),
                        f.garbageBytes(), f.metadata().provisionalBytes()));
            }

            return new EngineStats(stats.userBytes.sum(), stats.walBytes.sum(), stats.walSyncs.sum(), stats.flushBytes.sum(),
                    stats.compactionBytesRead.sum(), stats.compactionBytesWritten.sum(), stats.valueLogBytes.sum(),
                    stats.relocatedBytes.sum(), stats.recompressedBytes.sum(), v.liveBytesEstimate(), directoryBytes(), levels,
                    stats.flushes.sum(), stats.compactions.sum(), stats.gcCompactions.sum(), stats.stallSlowdowns.sum(),
                    stats.stallStops.sum(), stats.stallMicros.sum(), stats.writesStopped, filterStats.useful(),
                    filterStats.falsePositives(), blockCache.hits(), blockCache.misses(), blockCache.usedBytes(), memBytes,
                    view.immsNewestFirst().size(), picker.pendingCompactionBytes(v), visibleSequence, logs,
                    checkpoints.all().size(), deltas.all().size(), deltaBytes());
        } finally {
            versions.release(v);
        }
    }

    private long deltaBytes() {
        try {
            return deltas.unsharedBytes();
        } catch (IOException e) {
            throw EngineException.io("measuring the incremental chain in " + dir, e);
        }
    }

    /** Real bytes of every file in the data directory and, when it is elsewhere, the value-log directory. */
    private long directoryBytes() {
        long total = directoryBytes(dir);
        if (!valueLogs.directory().equals(dir)) {
            total += directoryBytes(valueLogs.directory());
        }
        return total;
    }

    private static long directoryBytes(Path d) {
        long total = 0;
        try (var s = Files.list(d)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                try {
                    total += Files.size(p);
                } catch (IOException e) {
                    // deleted between listing and stat: it no longer takes space
                }
            }
        } catch (IOException e) {
            throw EngineException.io("listing " + d, e);
        }
        return total;
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes the engine: waits for writes in progress, flushes the memtable when the log is
     * disabled (otherwise the log holds it), syncs the log, stops background work (a running
     * compaction is abandoned; its inputs stay valid) and releases the directory. Idempotent.
     */
    @Override
    public void close() {
        if (options.walMode() == WalMode.DISABLED && !closing && backgroundError == null) {
            flush();
        }
        mutex.lock();
        try {
            if (closed) {
                return;
            }
            closing = true;
            backgroundChanged.signalAll();
            while (!writers.isEmpty()) {
                Writer head = writers.peekFirst();
                head.turn.signal();
                awaitBackground(1);
            }
            while (flushRunning || runningCompactions > 0) {
                awaitBackground(10);
            }
            closed = true;
        } finally {
            mutex.unlock();
        }
        shutdownExecutors();
        Exception failure = null;
        try {
            if (wal != null) {
                wal.sync();
                wal.close();
            }
        } catch (IOException e) {
            failure = e;
        }
        obsoleteFiles.delete();
        for (AutoCloseable r : new AutoCloseable[] {versions, tableCache, valueLogs, deltas, lock, lockChannel}) {
            try {
                r.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure instanceof IOException io ? EngineException.io("closing " + dir, io)
                    : new EngineException(EngineException.Code.IO_ERROR, "closing " + dir + ": " + failure, failure);
        }
    }

    private void shutdownExecutors() {
        flushExecutor.shutdown();
        compactionExecutor.shutdown();
        try {
            flushExecutor.awaitTermination(1, TimeUnit.MINUTES);
            compactionExecutor.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
