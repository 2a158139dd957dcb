package dev.strata.server.raft;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineException;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.EngineStats;
import dev.strata.engine.KeyValue;
import dev.strata.engine.KeyValueIterator;
import dev.strata.engine.Snapshot;
import dev.strata.engine.WalMode;
import dev.strata.engine.WalRecovery;
import dev.strata.engine.WriteBatch;
import dev.strata.engine.checkpoint.Checkpoint;
import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.DeltaChain;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.proto.v1.Command;
import dev.strata.proto.v1.ContentId;
import dev.strata.proto.v1.MemberDirectory;
import dev.strata.proto.v1.MemberRecord;
import dev.strata.proto.v1.Plan;
import dev.strata.proto.v1.Query;
import dev.strata.server.checkpoint.CheckpointFetcher;
import dev.strata.server.checkpoint.CheckpointInstall;
import dev.strata.server.checkpoint.CheckpointSource;
import dev.strata.server.checkpoint.CheckpointStats;
import dev.strata.server.checkpoint.StagedCheckpoint;
import dev.strata.server.checkpoint.StagingArea;
import dev.strata.server.kv.CommandApplier;
import dev.strata.server.kv.EngineView;
import dev.strata.server.kv.InvalidRequestException;
import dev.strata.server.kv.KeySpace;
import dev.strata.server.kv.KvReader;
import dev.strata.server.kv.KvView;
import dev.strata.server.kv.RequestValidator;
import dev.strata.server.kv.RevisionCache;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SnapshotManagementRequest;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.TextFormat;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The Raft state machine of a Strata node: it owns the engine and applies the replicated log
 * to it. The server's one large coordinator; the key-value rules themselves live in
 * {@code dev.strata.server.kv}.
 *
 * <p>Durability: the Raft log is the write-ahead log. Every batch written for a log entry
 * carries that entry's (term, index) as the engine's applied marker, which a flush makes
 * durable. {@link #takeSnapshot()} reports the durable marker, so Ratis purges only log entries
 * the engine's files already hold.
 *
 * <p>The engine also keeps its own log, unsynced ({@link WalMode#NO_SYNC}), as a restart cache:
 * after a process crash it reopens with everything it had applied, replaying that log into its
 * memtable without flushing it. {@link #getLatestSnapshot()} reports the newest entry the engine
 * held when it opened, so Ratis applies only the entries after it; the Raft log keeps every
 * entry above the durable marker, fsynced (Ratis commits no entry its own log has not synced), so
 * a machine crash that damages the engine's log loses nothing: the next open reports what
 * survived and Ratis replays the rest. Re-applying an entry costs far more than reading
 * its engine batch back: the command is decoded again and every put reads the key's previous
 * version, on cold code. After a machine crash the unsynced log may be damaged anywhere;
 * {@link WalRecovery#POINT_IN_TIME} keeps the records before the damage and Raft replays the rest.
 *
 * <p>Failures: {@code applyTransaction} never throws (Ratis would stop the server). A command
 * that every node rejects the same way (it cannot happen after validation, but a malformed
 * entry would) completes exceptionally and is skipped everywhere. An engine failure (I/O error,
 * corruption, full disk) is not deterministic: this node stops applying from that entry on,
 * so its engine never holds a later entry without an earlier one, reports itself unhealthy,
 * and recovers by restarting, when the log is replayed from the durable marker.
 *
 * <p>Reads: {@link #read} gives a consistent engine snapshot together with the revision (log
 * index) it reflects. The apply thread holds a write lock only while it writes a batch and
 * moves the revision, so a snapshot and a revision taken under the read lock always agree.
 *
 * <p>Checkpoints: every so many log entries or bytes the apply thread starts an engine
 * checkpoint, taken in the background ({@link CheckpointScheduler}) and then reported to Ratis;
 * the checkpoint service ships them from this node (as {@link CheckpointSource}). A follower
 * behind the leader's purged log fetches one in {@link #notifyInstallSnapshotFromLeader} on its
 * own thread, then installs it between {@link #pause()} and {@link #reinitialize()}.
 *
 * <p>Thread safety: Ratis calls apply, snapshot and lifecycle methods from its state machine
 * updater thread; reads and stale queries come from any thread.
 */
public final class KvStateMachine extends BaseStateMachine implements CheckpointSource {
    private static final Logger LOG = LoggerFactory.getLogger(KvStateMachine.class);
    private static final ClientId SNAPSHOT_CLIENT = ClientId.randomId();

    private final Path engineDir;
    private final EngineOptions engineOptions;
    private final RequestValidator validator;
    private final KvReader reader;
    private final CommandApplier applier;
    private final EngineSnapshotStorage storage = new EngineSnapshotStorage(this::snapshotTermIndex);
    private final AppliedIndexWaiters waiters = new AppliedIndexWaiters();
    private final ReentrantReadWriteLock viewLock = new ReentrantReadWriteLock();
    private final Map<Long, String> memberAddresses = new ConcurrentHashMap<>();
    private final AtomicLong leaderChanges = new AtomicLong();
    private final AtomicLong snapshotsTaken = new AtomicLong();
    private final AtomicLong snapshotCalls = new AtomicLong();
    private final CheckpointScheduler checkpoints;
    /** Asks Ratis to purge the log the engine's flushes made redundant between checkpoints. */
    private final LogPurgeTrigger logPurges;
    /** The staged peers for which the last snapshot was deferred; written by the updater thread. */
    private volatile List<RaftPeerId> snapshotDeferredFor = List.of();
    private final CheckpointStats checkpointStats = new CheckpointStats();
    /** Fetches checkpoints from other nodes, one at a time, off Ratis' threads. */
    private final ExecutorService installExecutor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "strata-checkpoint-install");
        t.setDaemon(true);
        return t;
    });
    /** Fetched and verified, waiting for Ratis to pause and reinitialize this state machine. */
    private volatile StagedCheckpoint pendingInstall;
    /** Consecutive failed fetches, to space out the next attempt. */
    private volatile int failedFetches;
    /** A leader's client address (its checkpoint service listens there), or null or ""; set by the node. */
    private volatile Function<RaftPeer, String> leaderClientAddresses = leader -> null;
    /** How checkpoint fetches reach other members' client ports (plaintext or TLS); set by the node. */
    private volatile ChannelCredentials checkpointCredentials = InsecureChannelCredentials.create();

    /** Null while paused or closed. Written under the view lock's write side. */
    private volatile Engine engine;
    /** The revisions the open engine holds for recently written keys; replaced with the engine. */
    private volatile RevisionCache revisionCache = new RevisionCache(RevisionCache.DEFAULT_CAPACITY);
    /** The KV revision of the state the engine shows: that of the last applied write. */
    private volatile long revision;
    /** The newest (term, index) known to be durable in the engine's files. */
    private volatile TermIndex durable;
    /**
     * The newest (term, index) the engine held when it opened, flushed or only in its own log:
     * Ratis's starting point, which a snapshot reported later must not go below.
     */
    private volatile TermIndex heldAtOpen;
    /** Entries at or below this index are already in the engine, flushed or in its own log (set when it opens). */
    private volatile long skipThrough = RaftLog.INVALID_LOG_INDEX;
    /** The first engine failure; once set, nothing more is applied until a restart. */
    private volatile Throwable failure;
    /** The first log index the leader still has, when this node is behind it and needs a checkpoint. */
    private volatile TermIndex checkpointNeeded;
    /** Told once when the engine fails, so a failed leader can hand leadership to a healthy node. */
    private volatile Runnable failureListener = () -> { };
    /** Told when Ratis closes this state machine, which it does when it closes the Raft server. */
    private volatile Runnable closeListener = () -> { };
    /** Set by the first failed Raft log write; see {@link #notifyLogFailed}. */
    private final AtomicBoolean logFailed = new AtomicBoolean();
    /** Told once, on Ratis's log worker thread, when the Raft log cannot be written. */
    private volatile Runnable logFailureListener = () -> { };

    /**
     * @param engineDir                the engine's directory (created if absent)
     * @param engineOptions            engine options; the engine's log must be unsynced with point-in-time
     *                                 recovery, or disabled (the Raft log is the write-ahead log)
     * @param validator                checks commands in {@link #startTransaction}
     * @param snapshotThresholdEntries take a checkpoint after this many log entries since the last one
     * @param snapshotThresholdBytes   or after this many log bytes
     * @param logSegmentSize           the Raft log's segment size: after each segment's worth of log that
     *                                 the engine's flushes made durable, Ratis is asked to purge it
     */
    public KvStateMachine(Path engineDir, EngineOptions engineOptions, RequestValidator validator,
                          long snapshotThresholdEntries, long snapshotThresholdBytes, long logSegmentSize) {
        boolean restartCache = engineOptions.walMode() == WalMode.NO_SYNC && engineOptions.walRecovery() == WalRecovery.POINT_IN_TIME;
        if (!restartCache && engineOptions.walMode() != WalMode.DISABLED) {
            throw new IllegalArgumentException("the engine under Raft must run with WalMode.NO_SYNC and WalRecovery.POINT_IN_TIME, "
                    + "or WalMode.DISABLED; was " + engineOptions.walMode() + " and " + engineOptions.walRecovery());
        }
        this.engineDir = engineDir;
        this.engineOptions = engineOptions;
        this.validator = validator;
        this.reader = new KvReader(validator.limits());
        this.applier = new CommandApplier(reader);
        this.checkpoints = new CheckpointScheduler("strata-checkpoint", snapshotThresholdEntries, snapshotThresholdBytes,
                snapshotsTaken::incrementAndGet, this::reportDurableIndex);
        this.logPurges = new LogPurgeTrigger(logSegmentSize, () -> {
            TermIndex d = durableTermIndex();
            return d == null ? 0 : d.getIndex();
        }, () -> CompletableFuture.runAsync(this::reportDurableIndex));
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        getLifeCycle().startAndTransition(this::openEngine, IOException.class);
    }

    /** Opens the engine and takes the applied (term, index), revision and member directory from it. */
    private void openEngine() throws IOException {
        Engine opened;
        TermIndex marker;
        TermIndex newest;
        long newestRevision;
        CheckpointInstall.recover(engineDir);
        try {
            opened = Engine.open(engineDir, engineOptions);
        } catch (EngineException e) {
            throw new IOException("cannot open the engine in " + engineDir + ": " + e.getMessage(), e);
        }
        try {
            // The open keeps what it replayed from its own log in the memtable: those entries are
            // applied (Ratis starts after them) but not durable (Ratis keeps them in its log).
            marker = AppliedMarker.decode(opened.appliedMarker());
            byte[] newestBytes = opened.lastAppliedMarker();
            newest = AppliedMarker.decode(newestBytes);
            newestRevision = AppliedMarker.revision(newestBytes);
            memberAddresses.clear();
            byte[][] members = KeySpace.members();
            try (KeyValueIterator it = opened.scan(members[0], members[1])) {
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    MemberRecord m = MemberRecord.parseFrom(kv.value());
                    memberAddresses.put(m.getId(), m.getClientAddress());
                }
            }
        } catch (EngineException | IOException e) {
            opened.close();
            throw new IOException("cannot read the state of the engine in " + engineDir + ": " + e.getMessage(), e);
        }
        TermIndex applied = newest == null ? TermIndex.INITIAL_VALUE : newest;
        viewLock.writeLock().lock();
        try {
            engine = opened;
            revisionCache = new RevisionCache(RevisionCache.DEFAULT_CAPACITY);
            durable = marker;
            heldAtOpen = newest;
            skipThrough = applied.getIndex();
            revision = newestRevision;
            failure = null;
            checkpointNeeded = null;
        } finally {
            viewLock.writeLock().unlock();
        }
        setLastAppliedTermIndex(applied);
        waiters.advance(applied.getIndex());
        checkpoints.resume();
        LOG.info("engine in {} holds the log up to {} (revision {}; durable in its files up to {}); Raft replays the "
                + "entries after it", engineDir, newest == null ? "nothing (a new node)" : newest, newestRevision,
                marker == null ? "nothing" : marker);
    }

    /**
     * Closes the engine (which flushes it) so a checkpoint can replace its files: RUNNING ->
     * PAUSING -> PAUSED, as Ratis asserts before it reloads the state machine.
     */
    @Override
    public void pause() {
        LifeCycle lifeCycle = getLifeCycle();
        lifeCycle.transition(LifeCycle.State.PAUSING);
        viewLock.writeLock().lock();
        try {
            Engine e = engine;
            engine = null;
            checkpoints.suspend(); // none may still be linking the files the install replaces
            if (e != null) {
                flushAndClose(e);
            }
        } catch (EngineException e) {
            // The files on disk are what the reload will read; a failed flush only means more replay.
            LOG.error("closing the engine in {} for a checkpoint install failed; reopening it will replay the log: {}",
                    engineDir, e.getMessage(), e);
        } finally {
            viewLock.writeLock().unlock();
        }
        lifeCycle.transition(LifeCycle.State.PAUSED);
    }

    /** Reopens the engine from its directory after {@link #pause()}: PAUSED -> STARTING -> RUNNING. */
    @Override
    public void reinitialize() throws IOException {
        LifeCycle lifeCycle = getLifeCycle();
        lifeCycle.transition(LifeCycle.State.STARTING);
        try {
            StagedCheckpoint staged = pendingInstall;
            if (staged != null) {
                pendingInstall = null;
                install(staged);
            }
            openEngine();
        } catch (IOException e) {
            lifeCycle.transition(LifeCycle.State.EXCEPTION);
            throw e;
        }
        lifeCycle.transition(LifeCycle.State.RUNNING);
    }

    /**
     * Installs a fetched checkpoint into the closed engine's directory. Every file was verified
     * when it was staged; a failure here (the disk) is thrown, which stops the node rather than
     * let it apply the log after the checkpoint's index to an older state.
     */
    private void install(StagedCheckpoint staged) throws IOException {
        long started = System.nanoTime();
        try {
            CheckpointInstall.install(staged, engineDir, engineOptions);
        } catch (IOException | RuntimeException e) {
            checkpointStats.failedInstalls.incrementAndGet();
            throw new IOException("installing the checkpoint at index " + staged.index() + " into " + engineDir + " failed: "
                    + e.getMessage(), e);
        }
        (staged.kind() == Plan.Kind.FULL ? checkpointStats.fullInstalls : checkpointStats.deltaInstalls)
                .incrementAndGet();
        try {
            FileLinks.deleteTree(stagingDir()); // installed: nothing staged is needed any more
        } catch (IOException e) {
            LOG.warn("cannot clear the checkpoint staging directory {}: {}", stagingDir(), e.toString());
        }
        LOG.info("checkpoint installed at ({}, {}): {}; install {} ms", staged.term(), staged.index(), staged.report(),
                (System.nanoTime() - started) / 1_000_000);
    }

    private Path stagingDir() {
        return engineDir.resolveSibling("checkpoint-staging");
    }

    @Override
    public void close() {
        installExecutor.shutdownNow();
        checkpoints.close();
        getLifeCycle().checkStateAndClose(() -> {
            viewLock.writeLock().lock();
            try {
                Engine e = engine;
                engine = null;
                if (e != null) {
                    flushAndClose(e);
                }
            } catch (EngineException e) {
                LOG.error("closing the engine in {} failed; the next start replays the log from the durable marker {}: {}",
                        engineDir, durable, e.getMessage(), e);
            } finally {
                viewLock.writeLock().unlock();
            }
            waiters.failAll(new NodeUnavailableException("the state machine is closed"));
        });
        closeListener.run();
    }

    /**
     * Flushes before closing, so that a checkpoint install or the next start finds the engine's
     * files complete and its log empty (the log is only a crash's restart cache).
     */
    private static void flushAndClose(Engine e) {
        try {
            e.flush();
        } finally {
            e.close();
        }
    }

    // ------------------------------------------------------------------ writes

    /** Validates a write on the leader, before it reaches the log; a rejected one fails its client at once. */
    @Override
    public TransactionContext startTransaction(RaftClientRequest request) {
        TransactionContext.Builder b = TransactionContext.newBuilder().setStateMachine(this).setClientRequest(request);
        try {
            Throwable failed = failure;
            if (failed != null) {
                throw refusal(failed);
            }
            Command command = request.getMessage() instanceof CommandMessage local ? local.command()
                    : Command.parseFrom(request.getMessage().getContent().asReadOnlyByteBuffer());
            validator.command(command);
            return b.setStateMachineContext(command).build();
        } catch (InvalidProtocolBufferException e) {
            return rejected(b, new InvalidRequestException("the request is not a Strata command: " + e.getMessage()));
        } catch (InvalidRequestException | StorageFailedException | StorageFullException e) {
            return rejected(b, e);
        }
    }

    private static TransactionContext rejected(TransactionContext.Builder b, Exception e) {
        TransactionContext trx = b.build();
        trx.setException(e);
        return trx;
    }

    /** Applies a committed entry; see the class comment for what happens on failure. Never throws. */
    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        TermIndex ti = TermIndex.valueOf(entry);
        Throwable failed = failure;
        if (failed != null) {
            return CompletableFuture.failedFuture(refusal(failed));
        }
        if (ti.getIndex() <= skipThrough) {
            // Replayed after a restart, but the engine already holds it.
            advance(ti);
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
        Command command;
        try {
            command = trx.getStateMachineContext() instanceof Command c ? c
                    : Command.parseFrom(entry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
        } catch (InvalidProtocolBufferException e) {
            // Every node reads the same bytes and fails the same way, so skipping keeps them identical.
            LOG.error("log entry {} is not a Strata command; skipped on every node: {}", ti, e.getMessage());
            advance(ti);
            return CompletableFuture.failedFuture(new InvalidRequestException("log entry " + ti + " is not a command"));
        }
        try {
            Engine e = engine;
            if (e == null) {
                throw new EngineException(EngineException.Code.CLOSED, "the engine is closed");
            }
            boolean proposals = command.getOpCase() == Command.OpCase.PROPOSALS;
            List<Command> commands = proposals ? command.getProposals().getCommandsList() : List.of(command);
            RevisionCache cache = revisionCache;
            CommandApplier.EntryResult r = applier.applyEntry(EngineView.of(e, cache), commands, revision);
            WriteBatch batch = r.batch().setAppliedMarker(AppliedMarker.encode(ti, r.revision()));
            viewLock.writeLock().lock();
            try {
                // The Raft index is the engine sequence: every replica's files carry the same
                // sequences, which is what lets shipped checkpoint deltas be ordered by them.
                e.write(batch, ti.getIndex());
                revision = r.revision();
            } catch (RuntimeException writeFailed) {
                cache.clear(); // the engine may hold some of the batch or none of it
                throw writeFailed;
            } finally {
                viewLock.writeLock().unlock();
            }
            cache.record(r.writes());
            for (int i = 0; i < commands.size(); i++) {
                Command c = commands.get(i);
                if (r.outcomes().get(i) instanceof CommandApplier.Applied) {
                    switch (c.getOpCase()) {
                        case SET_MEMBER -> memberAddresses.put(c.getSetMember().getId(), c.getSetMember().getClientAddress());
                        case REMOVE_MEMBER -> memberAddresses.remove(c.getRemoveMember());
                        default -> { }
                    }
                }
            }
            advance(ti);
            int entryBytes = entry.getSerializedSize();
            checkpoints.applied(entryBytes, e::checkpoint);
            logPurges.applied(entryBytes);
            if (proposals) {
                return CompletableFuture.completedFuture(new OutcomesMessage(r.outcomes()));
            }
            // An entry written before batching: one command, answered as it was then.
            return switch (r.outcomes().get(0)) {
                case CommandApplier.Applied a -> CompletableFuture.completedFuture(message(a.response()));
                case CommandApplier.Refused refused -> CompletableFuture.failedFuture(refused.cause());
            };
        } catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(fail(ti, ex));
        }
    }

    /** Config changes and leader no-ops change no key but move the applied index. */
    @Override
    public void notifyTermIndexUpdated(long term, long index) {
        if (failure == null) {
            advance(TermIndex.valueOf(term, index));
        }
    }

    private void advance(TermIndex ti) {
        TermIndex needed = checkpointNeeded;
        if (needed != null && ti.getIndex() >= needed.getIndex()) {
            checkpointNeeded = null;
        }
        updateLastAppliedTermIndex(ti);
        waiters.advance(ti.getIndex());
    }

    /** Records the first engine failure and says what it means; later entries are refused. */
    private RuntimeException fail(TermIndex ti, RuntimeException cause) {
        synchronized (this) {
            if (failure == null) {
                failure = cause;
                waiters.failAll(refusal(cause));
                TermIndex d = durable;
                LOG.error("applying log entry {} failed, so this node applies nothing more. Fix the cause and restart "
                        + "it: it replays the log after {} (the entries are safe in the Raft log). Cause: {}",
                        ti, d == null ? "its start" : d, cause.getMessage(), cause);
                failureListener.run();
            }
        }
        return refusal(cause);
    }

    private RuntimeException refusal(Throwable cause) {
        String m = "node " + getId() + " cannot apply writes: " + cause.getMessage() + "; it needs a restart";
        return cause instanceof EngineException ee && ee.code() == EngineException.Code.NO_SPACE
                ? new StorageFullException(m) : new StorageFailedException(m);
    }

    /**
     * Asks Ratis for a snapshot after a background checkpoint, from the checkpoint's thread, or
     * after a flush made a segment of log durable ({@link LogPurgeTrigger}), from a pool thread:
     * the request is served by the apply thread, whose {@link #takeSnapshot()} reports what the
     * engine's files hold, and Ratis purges its log up to that.
     */
    private void reportDurableIndex() {
        try {
            RaftServer server = getServer().join();
            server.snapshotManagementAsync(SnapshotManagementRequest.newCreate(SNAPSHOT_CLIENT, getId(), getGroupId(),
                    snapshotCalls.incrementAndGet(), 60_000, 1)).whenComplete((reply, e) -> {
                        if (e != null || !reply.isSuccess()) {
                            LOG.warn("reporting the engine's durable index to Raft failed; the log is purged after the next report: {}",
                                    e != null ? e.toString() : reply.getException());
                        }
                    });
        } catch (RuntimeException e) {
            LOG.warn("cannot report the engine's durable index to Raft; the log is purged after the next report: {}", e.toString());
        }
    }

    // ------------------------------------------------------------------ snapshots

    /**
     * Tells Ratis how far it may purge the log: the index the engine's files hold. Periodic
     * checkpoints are taken in the background ({@link CheckpointScheduler}) and only reported
     * here. An operator's checkpoint ({@link CheckpointScheduler#requestNow()}) is taken here,
     * on the apply thread, so that it holds every entry applied before it.
     */
    @Override
    public long takeSnapshot() throws IOException {
        boolean now = checkpoints.takeNowRequest();
        Engine e = engine;
        if (failure != null || e == null) {
            return purgeableIndex(durable);
        }
        if (deferSnapshotForStagedPeers()) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        if (now) {
            checkpointNow(e);
            // A peer whose staging began during the flush may already read the entries a purge
            // would remove. The checkpoint stays (it is valid for shipping); Ratis just does not
            // hear of it, so it purges nothing.
            if (deferSnapshotForStagedPeers()) {
                return RaftLog.INVALID_LOG_INDEX;
            }
        }
        return purgeableIndex(durableTermIndex());
    }

    /**
     * The index Ratis may purge the log up to: the durable marker {@code d}, once it reaches what the
     * engine held when it opened. Ratis started from that (see {@link #getLatestSnapshot()}) and
     * rejects a snapshot index below it; until a flush covers it there is nothing new to purge.
     */
    private long purgeableIndex(TermIndex d) {
        TermIndex held = heldAtOpen;
        if (d == null || held != null && d.compareTo(held) < 0) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        return d.getIndex();
    }

    /** When this node takes checkpoints; an operator's goes through {@link CheckpointScheduler#requestNow()}. */
    CheckpointScheduler checkpoints() {
        return checkpoints;
    }

    /**
     * Makes everything applied durable in the engine's files: the applied (term, index) goes into a
     * marker-only batch, then the engine takes a checkpoint (a flush, and hard links that keep its
     * files for shipping). Runs on the apply thread.
     */
    private void checkpointNow(Engine e) throws IOException {
        TermIndex applied = getLastAppliedTermIndex();
        try {
            TermIndex d = durableTermIndex();
            // Entries that wrote nothing (configuration changes, leader no-ops) moved the applied
            // index past the last batch: record it with a marker-only batch at that index. When the
            // last applied entry wrote a batch, that batch already carries its marker.
            if (applied.getIndex() > e.lastSequence() && (d == null || applied.compareTo(d) > 0)) {
                e.write(new WriteBatch().setAppliedMarker(AppliedMarker.encode(applied, revision)), applied.getIndex());
            }
            e.checkpoint(); // flushes, then pins the files for the checkpoint service
        } catch (EngineException ex) {
            throw new IOException("checkpoint at " + applied + " failed: " + ex.getMessage(), ex);
        }
        checkpoints.restartCount();
        snapshotsTaken.incrementAndGet();
        LOG.info("checkpoint: the engine's files hold the log up to {}", durableTermIndex());
    }

    /**
     * Whether this node leads and is adding a member it still brings up to date, when a
     * snapshot's purge could cut the log under the member's appender for good (see
     * {@link StagedPeers}). Says so in the log when deferring starts and ends; the purge waits for
     * the next checkpoint reported after the member has joined.
     */
    private boolean deferSnapshotForStagedPeers() throws IOException {
        List<RaftPeerId> staged = StagedPeers.of(getServer().join().getDivision(getGroupId()));
        List<RaftPeerId> before = snapshotDeferredFor;
        snapshotDeferredFor = staged;
        if (!staged.isEmpty() && before.isEmpty()) {
            LOG.info("checkpoint deferred: this leader is adding {}, whose log appender must not lose the entries a purge would remove",
                    staged);
        } else if (staged.isEmpty() && !before.isEmpty()) {
            LOG.info("checkpoint no longer deferred: {} joined, or its addition ended", before);
        }
        return !staged.isEmpty();
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public SnapshotInfo getLatestSnapshot() {
        return storage.getLatestSnapshot();
    }

    /**
     * What Ratis sees as the snapshot: the newest of the durable marker and what the engine held when
     * it opened. Ratis applies the entries after it, and never sees it go back.
     */
    private TermIndex snapshotTermIndex() {
        TermIndex d = durableTermIndex();
        TermIndex held = heldAtOpen;
        return held == null || d != null && d.compareTo(held) >= 0 ? d : held;
    }

    /** The engine's durable marker, read fresh while it is open (flushes move it without telling us). */
    private TermIndex durableTermIndex() {
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

    /**
     * Ratis calls this when this node may need a checkpoint from the leader: always once for a
     * new member (Ratis lets every bootstrapping follower try), and whenever the leader has
     * purged entries this node still needs.
     *
     * <p>When the leader can still send the log (see {@link #leaderLogReaches}), there is nothing
     * to install: the answer "no snapshot" (null) makes the leader send the log. Otherwise the
     * fetch runs on its own thread (Ratis answers the leader "in progress"
     * meanwhile): it offers the files of a local checkpoint for reuse, stages and verifies what
     * the leader sends, and completes with the staged state's (term, index). Ratis then pauses
     * this state machine and reinitializes it, which installs what was staged; the log after it
     * is replayed. A failed fetch completes exceptionally; Ratis asks again at the leader's next
     * notice, and the files staged so far are kept.
     */
    /**
     * Whether a leader whose log starts at {@code leaderFirst} can send this node the log from
     * {@code next} on. It needs more than the entry at {@code next}: an append names the entry
     * before it, whose term the leader knows only while that entry is in its log (or is exactly
     * its snapshot, and then Ratis sends no notice). So a log starting at {@code next} itself is
     * not enough: the leader would keep sending notices and never an append (the soak's
     * {@code partition-leader+pause-leader} run sat that way for eight minutes), and the node must
     * fetch a checkpoint. The exception is a new, empty node: the log's first entry has nothing
     * before it.
     */
    static boolean leaderLogReaches(long next, long leaderFirst) {
        return leaderFirst < next || leaderFirst == RaftLog.LEAST_VALID_LOG_INDEX && next == leaderFirst;
    }

    @Override
    public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(RoleInfoProto roleInfo, TermIndex firstTermIndexInLog) {
        long next = getLastAppliedTermIndex().getIndex() + 1;
        if (leaderLogReaches(next, firstTermIndexInLog.getIndex())) {
            LOG.info("the leader's log starts at {}, and this node needs it from index {}: catching up from the log",
                    firstTermIndexInLog, next);
            return CompletableFuture.completedFuture(null);
        }
        checkpointNeeded = firstTermIndexInLog;
        RaftPeerProto leaderInfo = roleInfo.getFollowerInfo().getLeaderInfo().getId();
        RaftPeer notifier = RaftPeer.newBuilder().setId(RaftPeerId.valueOf(leaderInfo.getId()))
                .setAddress(leaderInfo.getAddress()).build();
        LOG.info("this node needs the log from index {} but the leader ({}) keeps it from {}: fetching a checkpoint",
                next, notifier.getId(), firstTermIndexInLog);
        int failures = failedFetches;
        long delayMillis = failures == 0 ? 0 : Math.min(30_000, 500L << Math.min(failures, 6));
        return CompletableFuture.supplyAsync(() -> fetchCheckpoint(notifier, firstTermIndexInLog.getIndex() - 1),
                CompletableFuture.delayedExecutor(delayMillis, TimeUnit.MILLISECONDS, installExecutor));
    }

    private TermIndex fetchCheckpoint(RaftPeer notifier, long minIndex) {
        Engine e = engine;
        if (e == null) {
            throw new NodeUnavailableException("the engine is closed");
        }
        Checkpoint local = null;
        try {
            Map<ContentId, Path> reusable = new HashMap<>();
            boolean hasState = e.lastSequence() > 0;
            if (hasState) {
                local = e.checkpoint(); // what this node holds, pinned so compaction leaves it while we fetch
                if (!local.tryPin()) {
                    local = null;
                } else {
                    for (CheckpointFile f : local.files()) {
                        reusable.put(ContentId.newBuilder().setSize(f.content().size()).setCrc32C(f.content().crc()).build(),
                                local.path(f));
                    }
                }
            }
            long applied = Math.max(0, e.lastSequence());
            StagedCheckpoint staged;
            try (CheckpointFetcher fetcher = new CheckpointFetcher(new StagingArea(stagingDir()), checkpointStats, 20,
                    Duration.ofSeconds(60), checkpointCredentials)) {
                staged = fetcher.fetch(new CheckpointFetcher.Request(applied, hasState, false, minIndex, reusable),
                        () -> leaderClientAddresses.apply(currentLeader(notifier)));
            }
            failedFetches = 0;
            long asked = Long.parseLong(notifier.getId().toString());
            long leading = Long.parseLong(currentLeader(notifier).getId().toString());
            if (leading != asked) {
                // Ratis finishes an install only when the leader that asked for it sends its next
                // notice. A new leader that still holds the log this node needs sends appends
                // instead, which Ratis refuses while the install is pending: the node would wait
                // forever. Failing the fetch clears the pending install; the new leader's log, or
                // its own notice, then brings the node up to date.
                FileLinks.deleteTree(stagingDir());
                LOG.info("checkpoint at index {} fetched, but node {} asked for it and node {} leads now: dropped; "
                        + "the new leader's log or its own notice decides what this node needs", staged.index(), asked, leading);
                throw new CompletionException(new NodeUnavailableException("leadership moved from node " + asked + " to node "
                        + leading + " while fetching a checkpoint"));
            }
            pendingInstall = staged;
            return TermIndex.valueOf(staged.term(), staged.index());
        } catch (CompletionException leadershipMoved) {
            throw leadershipMoved;
        } catch (IOException | RuntimeException ex) {
            failedFetches++;
            checkpointStats.failedInstalls.incrementAndGet();
            LOG.error("fetching a checkpoint failed (attempt {} in a row); Ratis asks again at the leader's next notice: {}",
                    failedFetches, ex.toString(), ex);
            throw new CompletionException(ex);
        } finally {
            if (local != null) {
                local.unpin();
            }
        }
    }

    /**
     * The leader this node knows now, else the one that sent the notice; with its Raft address
     * when this node knows it (from its configuration, or from the notice).
     */
    private RaftPeer currentLeader(RaftPeer notifier) {
        try {
            RaftServer.Division division = getServer().join().getDivision(getGroupId());
            RaftPeerId leader = division.getInfo().getLeaderId();
            if (leader == null || leader.equals(notifier.getId())) {
                return notifier;
            }
            RaftPeer inConf = division.getRaftConf().getPeer(leader);
            return inConf != null ? inConf : RaftPeer.newBuilder().setId(leader).build();
        } catch (IOException | RuntimeException e) {
            LOG.debug("no current leader known: {}", e.toString());
            return notifier;
        }
    }

    /** The staged peers for which the leader defers its snapshots now, if it does. */
    Optional<List<RaftPeerId>> snapshotDeferral() {
        List<RaftPeerId> staged = snapshotDeferredFor;
        return staged.isEmpty() ? Optional.empty() : Optional.of(staged);
    }

    /** Sets how to reach other members' client ports (plaintext until set). */
    void setCheckpointCredentials(ChannelCredentials credentials) {
        this.checkpointCredentials = credentials;
    }

    /** Sets how to find a leader's client address, where its checkpoint service listens. */
    void setLeaderClientAddresses(Function<RaftPeer, String> addresses) {
        this.leaderClientAddresses = addresses;
    }

    // ------------------------------------------------------------------ as a checkpoint source

    @Override
    public long nodeId() {
        return Long.parseLong(getId().toString());
    }

    @Override
    public Checkpoint checkpoint(boolean fresh) {
        Engine e = requireEngine();
        Checkpoint latest = e.latestCheckpoint();
        return fresh || latest == null ? e.checkpoint() : latest;
    }

    @Override
    public DeltaChain deltaChain() {
        return requireEngine().deltaChain();
    }

    private Engine requireEngine() {
        Engine e = engine;
        if (e == null) {
            throw new NodeUnavailableException("node " + getId() + " has no open engine (paused for a checkpoint install, or closed)");
        }
        return e;
    }

    /** The index of the newest checkpoint this node holds, or 0 (also while its engine is closed). */
    public long latestCheckpointIndex() {
        Engine e = engine;
        Checkpoint c = e == null ? null : e.latestCheckpoint();
        return c == null ? 0 : c.sequence();
    }

    /** Checkpoint traffic counters, this node as sender and as receiver. */
    public CheckpointStats checkpointStats() {
        return checkpointStats;
    }

    /**
     * Ratis could not write the Raft log (a full or failing disk). Its log worker then fails every
     * later write, but the entries it could not store stay in its in-memory log, and when a leader
     * sends them again this node answers that it holds them. It would count toward a quorum for
     * entries it does not have; and once restarted, with its log ending at the last entry that
     * reached the disk, it would answer every heartbeat "inconsistent" while the leader, which
     * never lowers a follower's match index, waits for it to confirm entries past that point:
     * the soak's {@code disk-full+lossy-links} run sat that way for eight minutes. So the node
     * stops serving at once, as etcd and TiKV do when a log write fails. Restarted once the disk
     * has room, it keeps its log up to the last durable entry and catches up from the leader.
     */
    @Override
    public void notifyLogFailed(Throwable cause, LogEntryProto failedEntry) {
        if (!logFailed.compareAndSet(false, true)) {
            return;
        }
        LOG.error("node {} could not write its Raft log{}, so it stops serving: restart it once the disk is fixed "
                        + "(it keeps the log up to the last entry that reached the disk). Cause: {}", getId(),
                failedEntry == null ? "" : " at index " + failedEntry.getIndex(), cause.toString(), cause);
        logFailureListener.run();
    }

    /** True once a Raft log write failed; the node then stops (see {@link #notifyLogFailed}). */
    boolean logFailed() {
        return logFailed.get();
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
        leaderChanges.incrementAndGet();
        LOG.info("{}: the leader is now {}", groupMemberId.getPeerId(), newLeaderId == null ? "unknown" : newLeaderId);
    }

    /**
     * Ratis shuts a server down after an election that found it is no voter of the configuration
     * it holds (NOT_IN_CONF), or that a voter told it to: this records its role then, as Ratis
     * logs the election itself only at INFO. Ratis calls this too when the whole server closes
     * ({@code allServer}), as at every graceful stop: no error then.
     */
    @Override
    public void notifyServerShutdown(RoleInfoProto roleInfo, boolean allServer) {
        if (allServer) {
            LOG.debug("{}: the Raft server closed; its role was {}", getId(), roleInfo.getRole());
            return;
        }
        LOG.error("{}: Ratis shut this Raft server down after an election; its role was {} ({})", getId(), roleInfo.getRole(),
                TextFormat.shortDebugString(roleInfo));
    }

    // ------------------------------------------------------------------ reads

    /** A read over a consistent view and the revision (log index) that view reflects. */
    @FunctionalInterface
    public interface ReadFunction<T> {
        T apply(KvView view, long revision);
    }

    /**
     * Runs {@code read} over a snapshot of the engine and the revision it reflects exactly.
     *
     * @throws NodeUnavailableException while the engine is paused or closed
     * @throws StorageFailedException   after an engine failure
     */
    public <T> T read(ReadFunction<T> read) {
        Snapshot snapshot;
        long rev;
        viewLock.readLock().lock();
        try {
            Throwable failed = failure;
            if (failed != null) {
                throw refusal(failed);
            }
            Engine e = engine;
            if (e == null) {
                throw new NodeUnavailableException("node " + getId() + " is not serving: its engine is "
                        + (getLifeCycleState().isPausingOrPaused() ? "paused for a checkpoint install" : "closed"));
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

    /** Serves a {@link Query} (get, range or the member directory) for Ratis read requests. */
    @Override
    public CompletableFuture<Message> query(Message request) {
        try {
            Query q = Query.parseFrom(request.getContent().asReadOnlyByteBuffer());
            MessageLite response = switch (q.getOpCase()) {
                case GET -> {
                    validator.get(q.getGet());
                    yield read((view, rev) -> reader.get(view, q.getGet(), rev));
                }
                case RANGE -> {
                    validator.range(q.getRange());
                    yield read((view, rev) -> reader.range(view, q.getRange(), rev));
                }
                case MEMBERS -> memberDirectory();
                case OP_NOT_SET -> throw new InvalidRequestException("the query has no operation");
            };
            return CompletableFuture.completedFuture(message(response));
        } catch (InvalidProtocolBufferException e) {
            return failedQuery(new InvalidRequestException("the request is not a Strata query: " + e.getMessage()));
        } catch (RuntimeException e) {
            return failedQuery(e);
        }
    }

    /** A stale read: waits until {@code minIndex} is applied here, then reads locally. */
    @Override
    public CompletableFuture<Message> queryStale(Message request, long minIndex) {
        return waiters.await(minIndex).thenCompose(v -> query(request));
    }

    private CompletableFuture<Message> failedQuery(RuntimeException e) {
        // Ratis passes a StateMachineException to the client as a reply; anything else fails the RPC.
        return CompletableFuture.failedFuture(new StateMachineException(RaftGroupMemberId.valueOf(getId(), getGroupId()), e));
    }

    private static Message message(MessageLite response) {
        return Message.valueOf(UnsafeByteOperations.unsafeWrap(response.toByteArray()));
    }

    // ------------------------------------------------------------------ state for status and metrics

    /** Sets what to run (once, on the apply thread: it must not block) when the engine fails. */
    void onFailure(Runnable listener) {
        this.failureListener = listener;
    }

    /**
     * Sets what to run, once, on Ratis's log worker thread when the Raft log cannot be written. It
     * may wait a little (the worker fails the entries' futures, and so the leader's requests, only
     * after it returns), but must not wait for the worker itself.
     */
    void onLogFailure(Runnable listener) {
        this.logFailureListener = listener;
    }

    /** Sets what to run, on Ratis's closing thread (it must not block), after this state machine closed. */
    void onClose(Runnable listener) {
        this.closeListener = listener;
    }

    /** The replicated member directory: id -> client address, as this node has applied it. */
    public MemberDirectory memberDirectory() {
        MemberDirectory.Builder b = MemberDirectory.newBuilder();
        memberAddresses.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> b.addMembers(MemberRecord.newBuilder().setId(e.getKey()).setClientAddress(e.getValue())));
        return b.build();
    }

    /** The client address the directory records for {@code id}, or null. */
    public String memberAddress(long id) {
        return memberAddresses.get(id);
    }

    /** The revision (last applied log index) reads see now. */
    public long revision() {
        return revision;
    }

    /** The newest log index durable in the engine's files, or -1. */
    public long durableIndex() {
        TermIndex d = durableTermIndex();
        return d == null ? RaftLog.INVALID_LOG_INDEX : d.getIndex();
    }

    /** The engine failure that stopped this node applying, or null while healthy. */
    public Throwable failure() {
        return failure;
    }

    /** The leader's first log index when this node is behind it and needs a checkpoint, or null. */
    public TermIndex checkpointNeeded() {
        return checkpointNeeded;
    }

    public long leaderChanges() {
        return leaderChanges.get();
    }

    public long snapshotsTaken() {
        return snapshotsTaken.get();
    }

    /**
     * The engine's statistics, or null while it is paused or closed.
     *
     * @throws EngineException if the engine fails to list its directory
     */
    public EngineStats engineStats() {
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
