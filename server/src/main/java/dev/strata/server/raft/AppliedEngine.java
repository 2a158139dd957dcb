package dev.strata.server.raft;

import dev.strata.engine.Checkpoint;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineException;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.EngineStats;
import dev.strata.engine.Snapshot;
import dev.strata.engine.WriteBatch;
import dev.strata.server.kv.EngineView;
import dev.strata.server.kv.RevisionCache;
import dev.strata.transfer.CheckpointInstall;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The engine under Raft and what it has applied: the open engine (none while it is paused for a
 * checkpoint install, or closed), the revision reads see, the applied markers, and the failure
 * that stopped it applying.
 *
 * <p>Every batch written for a log entry carries that entry's (term, index) as the engine's
 * applied marker. The <em>durable</em> marker is the newest one a flush wrote into the engine's
 * files; the marker <em>held at open</em> is the newest one the engine had when it opened, its
 * unsynced log replayed into the memtable included. Ratis starts after the newer of the two and
 * may purge its log only up to the durable one.
 *
 * <p>The engine's own log is unsynced ({@link dev.strata.engine.WalMode#NO_SYNC}): after a process
 * crash the open replays it into the memtable without flushing, so Ratis applies only the entries
 * after what it held. The Raft log keeps every entry above the durable marker, fsynced (Ratis
 * commits no entry its own log has not synced), so a machine crash that damages the engine's log
 * loses nothing: {@link dev.strata.engine.WalRecovery#POINT_IN_TIME} keeps the records before the
 * damage, the next open reports what survived, and Ratis replays the rest. Re-applying an entry
 * costs far more than reading its engine batch back: the command is decoded again and every put
 * reads the key's previous version, on cold code.
 *
 * <p>A read's snapshot and revision are taken under one read lock; the apply thread takes the
 * write lock only to write a batch and move the revision, so the two always agree.
 */
final class AppliedEngine {
    private static final Logger LOG = LoggerFactory.getLogger(AppliedEngine.class);

    private final Path dir;
    private final EngineOptions options;
    private final ReentrantReadWriteLock viewLock = new ReentrantReadWriteLock();
    private volatile Engine engine;
    /** Previous versions of recently written keys; cleared whenever the engine may differ from it. */
    private volatile RevisionCache revisionCache = new RevisionCache(RevisionCache.DEFAULT_CAPACITY);
    private volatile long revision;
    private volatile TermIndex durable;
    private volatile TermIndex heldAtOpen;
    private volatile Throwable failure;

    AppliedEngine(Path dir, EngineOptions options) {
        this.dir = dir;
        this.options = options;
    }

    Path dir() {
        return dir;
    }

    EngineOptions options() {
        return options;
    }

    /**
     * Opens the engine (finishing a checkpoint install an earlier process left half done) and
     * takes the applied markers, the revision and {@code members} from it.
     *
     * @return the newest entry the engine holds, or {@link TermIndex#INITIAL_VALUE} when it is new
     */
    TermIndex open(MemberAddresses members) throws IOException {
        Engine opened;
        TermIndex marker;
        TermIndex newest;
        long newestRevision;
        CheckpointInstall.recover(dir);
        try {
            opened = Engine.open(dir, options);
        } catch (EngineException e) {
            throw new IOException("cannot open the engine in " + dir + ": " + e.getMessage(), e);
        }
        try {
            // The open keeps what it replayed from its own log in the memtable: those entries are
            // applied (Ratis starts after them) but not durable (Ratis keeps them in its log).
            marker = AppliedMarker.decode(opened.appliedMarker());
            byte[] newestBytes = opened.lastAppliedMarker();
            newest = AppliedMarker.decode(newestBytes);
            newestRevision = AppliedMarker.revision(newestBytes);
            members.reload(opened);
        } catch (EngineException | IOException e) {
            opened.close();
            throw new IOException("cannot read the state of the engine in " + dir + ": " + e.getMessage(), e);
        }
        viewLock.writeLock().lock();
        try {
            engine = opened;
            revisionCache = new RevisionCache(RevisionCache.DEFAULT_CAPACITY);
            durable = marker;
            heldAtOpen = newest;
            revision = newestRevision;
            failure = null;
        } finally {
            viewLock.writeLock().unlock();
        }
        LOG.info("engine in {} holds the log up to {} (revision {}; durable in its files up to {}); Raft replays the "
                + "entries after it", dir, newest == null ? "nothing (a new node)" : newest, newestRevision,
                marker == null ? "nothing" : marker);
        return newest == null ? TermIndex.INITIAL_VALUE : newest;
    }

    /**
     * Detaches the engine, runs {@code whileDetached} under the write lock (no read or write can
     * start meanwhile), then flushes the engine and closes it, so that a checkpoint install or the
     * next start finds its files complete and its log empty (that log is only a crash's restart
     * cache). Does nothing more when no engine is open.
     *
     * @throws EngineException when the flush fails; the engine is closed anyway
     */
    void close(Runnable whileDetached) {
        viewLock.writeLock().lock();
        try {
            Engine e = engine;
            engine = null;
            whileDetached.run();
            if (e != null) {
                try {
                    e.flush();
                } finally {
                    e.close();
                }
            }
        } finally {
            viewLock.writeLock().unlock();
        }
    }

    /** The open engine, or null while it is paused or closed. */
    Engine current() {
        return engine;
    }

    /**
     * Writes the batch of the log entry at {@code index} and moves the revision reads see, as one
     * step for readers. The Raft index is the engine sequence: every replica's files carry the
     * same sequences, which is what lets shipped checkpoint deltas be ordered by them.
     */
    void write(Engine e, WriteBatch batch, long index, long newRevision, RevisionCache cache) {
        viewLock.writeLock().lock();
        try {
            e.write(batch, index);
            revision = newRevision;
        } catch (RuntimeException writeFailed) {
            cache.clear(); // the engine may hold some of the batch or none of it
            throw writeFailed;
        } finally {
            viewLock.writeLock().unlock();
        }
    }

    /**
     * Runs {@code read} over a snapshot of the engine and the revision it reflects exactly.
     *
     * @param refusal   the exception for a read after the engine failed
     * @param notServing the exception for a read while the engine is paused or closed
     */
    <T> T read(ReadFunction<T> read, Supplier<RuntimeException> refusal, Supplier<RuntimeException> notServing) {
        Snapshot snapshot;
        long rev;
        viewLock.readLock().lock();
        try {
            if (failure != null) {
                throw refusal.get();
            }
            Engine e = engine;
            if (e == null) {
                throw notServing.get();
            }
            snapshot = e.snapshot();
            rev = revision;
        } finally {
            viewLock.readLock().unlock();
        }
        try (snapshot) {
            return read.apply(EngineView.of(snapshot), rev);
        }
    }

    /** The revision (last applied log index that wrote) reads see now. */
    long revision() {
        return revision;
    }

    RevisionCache revisionCache() {
        return revisionCache;
    }

    /** Records {@code cause} as the failure that stops this engine applying; false if one was already recorded. */
    synchronized boolean recordFailure(Throwable cause) {
        if (failure != null) {
            return false;
        }
        failure = cause;
        return true;
    }

    /** The failure that stopped this engine applying, or null while healthy. */
    Throwable failure() {
        return failure;
    }

    /** The engine's durable marker, read fresh while it is open (flushes move it without telling us). */
    TermIndex durable() {
        Engine e = engine;
        if (e != null) {
            try {
                TermIndex ti = AppliedMarker.decode(e.appliedMarker());
                if (ti != null && (durable == null || ti.compareTo(durable) > 0)) {
                    durable = ti;
                }
            } catch (EngineException ex) {
                LOG.debug("reading the applied marker failed, keeping {}: {}", durable, ex.toString());
            }
        }
        return durable;
    }

    /** The durable marker as last read, without asking the engine. */
    TermIndex lastKnownDurable() {
        return durable;
    }

    /**
     * What Ratis sees as the snapshot: the newest of the durable marker and what the engine held when
     * it opened. Ratis applies the entries after it, and never sees it go back.
     */
    TermIndex snapshotTermIndex() {
        TermIndex d = durable();
        TermIndex held = heldAtOpen;
        return held == null || d != null && d.compareTo(held) >= 0 ? d : held;
    }

    /**
     * The index Ratis may purge the log up to: the durable marker {@code d}, once it reaches what the
     * engine held when it opened. Ratis started from that (see {@link #snapshotTermIndex()}) and
     * rejects a snapshot index below it; until a flush covers it there is nothing new to purge.
     */
    long purgeableIndex(TermIndex d) {
        TermIndex held = heldAtOpen;
        if (d == null || held != null && d.compareTo(held) < 0) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        return d.getIndex();
    }

    /** The index of the newest checkpoint the engine holds, or 0 (also while it is closed). */
    long latestCheckpointIndex() {
        Engine e = engine;
        Checkpoint c = e == null ? null : e.latestCheckpoint();
        return c == null ? 0 : c.sequence();
    }

    /**
     * The engine's statistics, or null while it is paused or closed.
     *
     * @throws EngineException if the engine fails to list its directory
     */
    EngineStats stats() {
        Engine e = engine;
        if (e == null) {
            return null;
        }
        try {
            return e.stats();
        } catch (EngineException ex) {
            if (ex.code() == EngineException.Code.CLOSED) {
                return null;
            }
            throw ex;
        }
    }
}
