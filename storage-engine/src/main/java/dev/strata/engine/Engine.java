package dev.strata.engine;

import dev.strata.engine.cache.BlockCache;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.sst.FilterStats;
import dev.strata.engine.version.CheckpointContents;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
    private final EngineCore core;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final FilterStats filterStats;
    private final BlockCache blockCache;
    private final WriteQueue writeQueue;
    private final Flushes flushes;
    private final Compactions compactions;
    private final Recovery recovery;
    private final Reads reads;
    private final Ingestion ingestion;

    private Engine(EngineCore core, FileChannel lockChannel, FileLock lock, FilterStats filterStats, BlockCache blockCache) {
        this.core = core;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.filterStats = filterStats;
        this.blockCache = blockCache;
        JobOutputs jobOutputs = new JobOutputs(core.options, core.versions, core.valueLogs);
        DeltaKeeper deltaKeeper = new DeltaKeeper(core.dir, core.options, core.versions, core.valueLogs, core.deltas);
        this.compactions = new Compactions(core, jobOutputs, deltaKeeper);
        this.flushes = new Flushes(core, jobOutputs, deltaKeeper, compactions);
        this.recovery = new Recovery(core, flushes, deltaKeeper, compactions);
        this.writeQueue = new WriteQueue(core, flushes);
        this.reads = new Reads(core);
        this.ingestion = new Ingestion(core, writeQueue, jobOutputs, deltaKeeper, compactions);
        core.versions.onVersionReleased(flushes::scheduleObsoleteFileDeletion);
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
            Engine engine = new Engine(new EngineCore(dir, options, versions, tableCache, valueLogs, checkpoints, deltas),
                    lockChannel, lock, filterStats, blockCache);
            try {
                engine.recovery.run();
            } catch (IOException | RuntimeException e) {
                engine.shutdownExecutors();
                throw e;
            }
            return engine;
        } catch (IOException | RuntimeException e) {
            closeQuietly(e, versions, tableCache, valueLogs, deltas == null ? null : deltas::close, lockChannel);
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
        writeQueue.write(batch, 0);
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
        writeQueue.write(batch, sequence);
    }

    // ---------------------------------------------------------------- reads

    /** The value of {@code key}, or null when absent. */
    public byte[] get(byte[] key) {
        Objects.requireNonNull(key, "key");
        core.checkOpen();
        return reads.get(key, core.visibleSequence);
    }

    /**
     * Iterates the keys in {@code [fromInclusive, toExclusive)} (null bounds are open) in
     * unsigned-byte order, as of now. Close the iterator: it pins files until then.
     */
    public KeyValueIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        core.checkOpen();
        return reads.scan(fromInclusive, toExclusive, core.visibleSequence);
    }

    /** A consistent read view as of now; close it so compaction may drop what only it could see. */
    public Snapshot snapshot() {
        core.checkOpen();
        core.mutex.lock();
        try {
            long seq = core.visibleSequence;
            core.snapshots.add(seq);
            return new EngineSnapshot(core, reads, seq);
        } finally {
            core.mutex.unlock();
        }
    }

    // ---------------------------------------------------------------- maintenance

    /**
     * Writes the memtable (if it holds anything) to a table and waits until every frozen
     * memtable is flushed, so everything written before this call is in table files and the
     * newest applied marker is durable.
     */
    public void flush() {
        core.checkOpen();
        writeQueue.flushMemTable();
    }

    /**
     * Compacts every file overlapping the user keys {@code [from, to]} (null = open) down to the
     * deepest level that holds data, after flushing the memtable, then rewrites that bottom
     * range in place unless this call just wrote it; waits until done. Afterwards the range
     * holds one version per key (plus those open snapshots need) and no tombstones.
     */
    public void compactRange(byte[] from, byte[] to) {
        flush();
        compactions.compactRange(from, to);
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
        compactions.waitForCompactions();
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
        core.checkOpen();
        Version v = core.versions.acquireCurrent();
        try {
            return IntegrityCheck.run(v, core.tableCache, reads::resolve);
        } finally {
            core.versions.release(v);
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
        VersionSet.Durable d = core.versions.acquireDurable();
        try {
            List<VersionEdit.NewFile> tables = new ArrayList<>();
            for (int level = 0; level < d.version().numLevels(); level++) {
                for (FileMetadata f : d.version().files(level)) {
                    tables.add(new VersionEdit.NewFile(level, f));
                }
            }
            CheckpointManifest m = new CheckpointContents(d.lastSequence(), d.appliedMarker(), d.origin(), tables,
                    List.copyOf(d.version().valueLogs().values()));
            return core.checkpoints.create(m);
        } catch (IOException e) {
            throw EngineException.io("taking a checkpoint in " + core.dir, e);
        } finally {
            core.versions.release(d.version());
        }
    }

    /** The newest checkpoint kept, or null. */
    public Checkpoint latestCheckpoint() {
        return core.checkpoints.latest();
    }

    /** The checkpoints kept, oldest first. */
    public List<Checkpoint> checkpoints() {
        return core.checkpoints.all();
    }

    /** The incremental chain of flush outputs (empty when {@code deltaRetention} is 0). */
    public DeltaChain deltaChain() {
        return core.deltas;
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
        ingestion.ingest(staging, received);
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
        core.policy = Objects.requireNonNull(newPolicy, "policy");
    }

    public CompressionPolicy compressionPolicy() {
        return core.policy;
    }

    /**
     * The newest applied marker that is durable in flushed files (see
     * {@link WriteBatch#setAppliedMarker}), or null when none was ever flushed.
     */
    public byte[] appliedMarker() {
        byte[] m = core.versions.appliedMarker();
        return m == null ? null : m.clone();
    }

    /**
     * The marker of the newest batch applied, whether flushed or still only in a memtable and the
     * logs, or null when none. Differs from {@link #appliedMarker()} after writes that are not
     * flushed yet, such as those an open kept in the memtable ({@link EngineOptions#flushAfterRecovery()}).
     */
    public byte[] lastAppliedMarker() {
        MemTables m = core.memtables;
        byte[] marker = m.mem().appliedMarker();
        for (int i = 0; marker == null && i < m.immsNewestFirst().size(); i++) {
            marker = m.immsNewestFirst().get(i).appliedMarker();
        }
        return marker != null ? marker.clone() : appliedMarker();
    }

    public Path directory() {
        return core.dir;
    }

    /** The sequence of the newest write readers see (with chosen sequences: the newest Raft index written). */
    public long lastSequence() {
        return core.visibleSequence;
    }

    public EngineOptions options() {
        return core.options;
    }

    /** Counters and sizes; cheap enough to call every few seconds (it lists the directory). */
    public EngineStats stats() {
        core.checkOpen();
        return EngineStatsReport.collect(core, filterStats, blockCache);
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes the engine: waits for writes in progress, flushes the memtable when the log is
     * disabled (otherwise the log holds it), syncs the log, stops background work (a running
     * compaction is abandoned; its inputs stay valid) and releases the directory. Idempotent.
     */
    @Override
    public void close() {
        if (core.options.walMode() == WalMode.DISABLED && !core.closing && core.backgroundError == null) {
            flush();
        }
        core.mutex.lock();
        try {
            if (core.closed) {
                return;
            }
            core.closing = true;
            core.backgroundChanged.signalAll();
            writeQueue.drainForClose();
            while (core.flushRunning || compactions.running()) {
                core.awaitBackground(10);
            }
            core.closed = true;
        } finally {
            core.mutex.unlock();
        }
        shutdownExecutors();
        Exception failure = null;
        try {
            if (core.wal != null) {
                core.wal.sync();
                core.wal.close();
            }
        } catch (IOException e) {
            failure = e;
        }
        core.obsoleteFiles.delete();
        for (AutoCloseable r : new AutoCloseable[] {core.versions, core.tableCache, core.valueLogs, core.deltas::close, lock, lockChannel}) {
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
            throw failure instanceof IOException io ? EngineException.io("closing " + core.dir, io)
                    : new EngineException(EngineException.Code.IO_ERROR, "closing " + core.dir + ": " + failure, failure);
        }
    }

    private void shutdownExecutors() {
        flushes.shutdown();
        compactions.shutdown();
        try {
            flushes.awaitTermination();
            compactions.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
