package dev.strata.server.raft;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineException;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.EngineStats;
import dev.strata.engine.WalMode;
import dev.strata.engine.WalRecovery;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.internal.v1.MemberDirectory;
import dev.strata.proto.internal.v1.Query;
import dev.strata.server.checkpoint.CheckpointSource;
import dev.strata.server.kv.CommandApplier;
import dev.strata.server.kv.InvalidRequestException;
import dev.strata.server.kv.KvReader;
import dev.strata.server.kv.RequestValidator;
import dev.strata.transfer.CheckpointStats;
import io.grpc.ChannelCredentials;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
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
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Raft state machine of a Strata node: Ratis's callbacks, each handed to the class that does
 * that job. {@link AppliedEngine} holds the engine and what it has applied, {@link EntryApplier}
 * applies committed entries (and decides what a failure means), {@link SnapshotPolicy} tells
 * Ratis how far it may purge its log, {@link CheckpointCatchUp} brings a lagging follower up to
 * date from a leader's checkpoint, and {@link MemberAddresses} keeps the member directory. The
 * key-value rules themselves live in {@code dev.strata.server.kv}.
 *
 * <p>Durability: the Raft log is the write-ahead log, and the engine's own unsynced log a restart
 * cache; {@link AppliedEngine} says why that loses nothing. {@link #takeSnapshot()} reports the
 * durable marker, so Ratis purges only log entries the engine's files already hold, and
 * {@link #getLatestSnapshot()} the newest entry the engine held when it opened, so Ratis applies
 * only the entries after it.
 *
 * <p>Thread safety: Ratis calls apply, snapshot and lifecycle methods from its state machine
 * updater thread; reads and stale queries come from any thread.
 */
public final class KvStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(KvStateMachine.class);

    private final RequestValidator validator;
    private final KvReader reader;
    private final AppliedEngine engine;
    private final MemberAddresses members = new MemberAddresses();
    private final AppliedIndexWaiters waiters = new AppliedIndexWaiters();
    private final EntryApplier entries;
    private final SnapshotPolicy snapshots;
    private final CheckpointStats checkpointStats = new CheckpointStats();
    private final CheckpointCatchUp catchUp;
    private final CheckpointSource checkpointSource;
    private final EngineSnapshotStorage storage;
    private final AtomicLong leaderChanges = new AtomicLong();
    /** Entries at or below this index are already in the engine, flushed or in its own log (set when it opens). */
    private volatile long skipThrough = RaftLog.INVALID_LOG_INDEX;
    /** Set by the first failed Raft log write; see {@link #notifyLogFailed}. */
    private final AtomicBoolean logFailed = new AtomicBoolean();
    private final NodeEvents events;

    /**
     * @param engineDir                the engine's directory (created if absent)
     * @param engineOptions            engine options; the engine's log must be unsynced with point-in-time
     *                                 recovery, or disabled (the Raft log is the write-ahead log)
     * @param validator                checks commands in {@link #startTransaction}
     * @param snapshotThresholdEntries take a checkpoint after this many log entries since the last one
     * @param snapshotThresholdBytes   or after this many log bytes
     * @param logSegmentSize           the Raft log's segment size: after each segment's worth of log that
     *                                 the engine's flushes made durable, Ratis is asked to purge it
     * @param checkpointCredentials    how to reach other members' client ports to fetch a checkpoint
     * @param events                   what this state machine tells the node it runs in
     */
    KvStateMachine(Path engineDir, EngineOptions engineOptions, RequestValidator validator,
                   long snapshotThresholdEntries, long snapshotThresholdBytes, long logSegmentSize,
                   ChannelCredentials checkpointCredentials, NodeEvents events) {
        boolean restartCache = engineOptions.walMode() == WalMode.NO_SYNC && engineOptions.walRecovery() == WalRecovery.POINT_IN_TIME;
        if (!restartCache && engineOptions.walMode() != WalMode.DISABLED) {
            throw new IllegalArgumentException("the engine under Raft must run with WalMode.NO_SYNC and WalRecovery.POINT_IN_TIME, "
                    + "or WalMode.DISABLED; was " + engineOptions.walMode() + " and " + engineOptions.walRecovery());
        }
        this.validator = validator;
        this.events = events;
        this.reader = new KvReader(validator.limits());
        this.engine = new AppliedEngine(engineDir, engineOptions);
        this.entries = new EntryApplier(engine, validator, new CommandApplier(reader), members, waiters, this::getId,
                events);
        this.snapshots = new SnapshotPolicy(engine, this::getLastAppliedTermIndex, this::division,
                snapshotThresholdEntries, snapshotThresholdBytes, logSegmentSize);
        this.catchUp = new CheckpointCatchUp(engine, this::getLastAppliedTermIndex, this::division, checkpointStats,
                checkpointCredentials, events::leaderClientAddress);
        this.storage = new EngineSnapshotStorage(engine::snapshotTermIndex);
        this.checkpointSource = new EngineCheckpointSource(() -> Long.parseLong(getId().toString()), engine);
    }

    /** This node's Raft division, once Ratis has started it. */
    private RaftServer.Division division() {
        try {
            return getServer().join().getDivision(getGroupId());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        getLifeCycle().startAndTransition(this::openEngine, IOException.class);
    }

    /** Opens the engine; Ratis applies the entries after the newest one it holds. */
    private void openEngine() throws IOException {
        TermIndex applied = engine.open(members);
        skipThrough = applied.getIndex();
        catchUp.reopened();
        setLastAppliedTermIndex(applied);
        waiters.advance(applied.getIndex());
        snapshots.checkpoints().resume();
    }

    /**
     * Closes the engine (which flushes it) so a checkpoint can replace its files: RUNNING ->
     * PAUSING -> PAUSED, as Ratis asserts before it reloads the state machine.
     */
    @Override
    public void pause() {
        LifeCycle lifeCycle = getLifeCycle();
        lifeCycle.transition(LifeCycle.State.PAUSING);
        try {
            // No checkpoint may still be linking the files the install replaces.
            engine.close(snapshots.checkpoints()::suspend);
        } catch (EngineException e) {
            // The files on disk are what the reload will read; a failed flush only means more replay.
            LOG.error("closing the engine in {} for a checkpoint install failed; reopening it will replay the log: {}",
                    engine.dir(), e.getMessage(), e);
        }
        lifeCycle.transition(LifeCycle.State.PAUSED);
    }

    /** Installs a staged checkpoint, if any, and reopens the engine after {@link #pause()}: PAUSED -> STARTING -> RUNNING. */
    @Override
    public void reinitialize() throws IOException {
        LifeCycle lifeCycle = getLifeCycle();
        lifeCycle.transition(LifeCycle.State.STARTING);
        try {
            catchUp.installStaged();
            openEngine();
        } catch (IOException e) {
            lifeCycle.transition(LifeCycle.State.EXCEPTION);
            throw e;
        }
        lifeCycle.transition(LifeCycle.State.RUNNING);
    }

    @Override
    public void close() {
        catchUp.close();
        snapshots.checkpoints().close();
        getLifeCycle().checkStateAndClose(() -> {
            try {
                engine.close(() -> { });
            } catch (EngineException e) {
                LOG.error("closing the engine in {} failed; the next start replays the log from the durable marker {}: {}",
                        engine.dir(), engine.lastKnownDurable(), e.getMessage(), e);
            }
            waiters.failAll(new NodeUnavailableException("the state machine is closed"));
        });
        events.stateMachineClosed();
    }

    // ------------------------------------------------------------------ writes

    /** Validates a write on the leader, before it reaches the log; a rejected one fails its client at once. */
    @Override
    public TransactionContext startTransaction(RaftClientRequest request) {
        TransactionContext.Builder b = TransactionContext.newBuilder().setStateMachine(this).setClientRequest(request);
        Command command;
        try {
            command = entries.validate(request);
        } catch (InvalidRequestException | StorageFailedException | StorageFullException e) {
            TransactionContext trx = b.build();
            trx.setException(e);
            return trx;
        }
        return b.setStateMachineContext(command).build();
    }

    /** Applies a committed entry; see {@link EntryApplier} for what happens on failure. Never throws. */
    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        TermIndex ti = TermIndex.valueOf(entry);
        Throwable failed = engine.failure();
        if (failed != null) {
            return CompletableFuture.failedFuture(entries.refusal(failed));
        }
        if (ti.getIndex() <= skipThrough) {
            // Replayed after a restart, but the engine already holds it.
            advance(ti);
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
        try {
            CompletableFuture<Message> reply = entries.apply(ti, trx);
            advance(ti);
            Engine e = engine.current();
            if (e != null) { // none only when the entry was skipped as malformed while the engine was closed
                snapshots.applied(e, entry.getSerializedSize());
            }
            return reply;
        } catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(entries.fail(ti, ex));
        }
    }

    /** Config changes and leader no-ops change no key but move the applied index. */
    @Override
    public void notifyTermIndexUpdated(long term, long index) {
        if (engine.failure() == null) {
            advance(TermIndex.valueOf(term, index));
        }
    }

    private void advance(TermIndex ti) {
        catchUp.applied(ti);
        updateLastAppliedTermIndex(ti);
        waiters.advance(ti.getIndex());
    }

    // ------------------------------------------------------------------ snapshots and catching up

    /** Tells Ratis how far it may purge the log; see {@link SnapshotPolicy}. */
    @Override
    public long takeSnapshot() throws IOException {
        return snapshots.takeSnapshot();
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    /** The newest of the durable marker and what the engine held when it opened; see {@link AppliedEngine}. */
    @Override
    public SnapshotInfo getLatestSnapshot() {
        return storage.getLatestSnapshot();
    }

    /** See {@link CheckpointCatchUp}. */
    @Override
    public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(RoleInfoProto roleInfo, TermIndex firstTermIndexInLog) {
        return catchUp.onInstallNotice(roleInfo, firstTermIndexInLog);
    }

    /** When this node takes checkpoints. */
    CheckpointScheduler checkpoints() {
        return snapshots.checkpoints();
    }

    /** Takes an operator's checkpoint now; see {@link SnapshotPolicy#checkpointNow(Duration)}. */
    long checkpointNow(Duration timeout) throws IOException, TimeoutException {
        return snapshots.checkpointNow(timeout);
    }

    /** The staged peers for which the leader defers its snapshots now, if it does. */
    Optional<List<RaftPeerId>> snapshotDeferral() {
        return snapshots.deferral();
    }

    // ------------------------------------------------------------------ as a checkpoint source

    /** This node's checkpoints and incremental chain, for the checkpoint service to ship. */
    public CheckpointSource checkpointSource() {
        return checkpointSource;
    }

    /** The index of the newest checkpoint this node holds, or 0 (also while its engine is closed). */
    public long latestCheckpointIndex() {
        return engine.latestCheckpointIndex();
    }

    /** Checkpoint traffic counters, this node as sender and as receiver. */
    public CheckpointStats checkpointStats() {
        return checkpointStats;
    }

    // ------------------------------------------------------------------ Ratis's notices

    /**
     * Ratis could not write the Raft log (a full or failing disk). Its log worker then fails every
     * later write, but the entries it could not store stay in its in-memory log, and when a leader
     * sends them again this node answers that it holds them. It would count toward a quorum for
     * entries it does not have; and once restarted, with its log ending at the last entry that
     * reached the disk, it would answer every heartbeat "inconsistent" while the leader, which
     * never lowers a follower's match index, waits for it to confirm entries past that point:
     * the pair can sit that way for minutes. So the node
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
        events.raftLogFailed();
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

    /**
     * Runs {@code read} over a snapshot of the engine and the revision it reflects exactly.
     *
     * @throws NodeUnavailableException while the engine is paused or closed
     * @throws StorageFailedException   after an engine failure
     */
    public <T> T read(ReadFunction<T> read) {
        return engine.read(read, () -> entries.refusal(engine.failure()),
                () -> new NodeUnavailableException("node " + getId() + " is not serving: its engine is "
                        + (getLifeCycleState().isPausingOrPaused() ? "paused for a checkpoint install" : "closed")));
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
            return CompletableFuture.completedFuture(EntryApplier.message(response));
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

    // ------------------------------------------------------------------ state for status and metrics

    /** The replicated member directory: id -> client address, as this node has applied it. */
    public MemberDirectory memberDirectory() {
        return members.directory();
    }

    /** The client address the directory records for {@code id}, or null. */
    public String memberAddress(long id) {
        return members.address(id);
    }

    /** The revision (last applied log index) reads see now. */
    public long revision() {
        return engine.revision();
    }

    /** The newest log index durable in the engine's files, or -1. */
    public long durableIndex() {
        TermIndex d = engine.durable();
        return d == null ? RaftLog.INVALID_LOG_INDEX : d.getIndex();
    }

    /** The engine failure that stopped this node applying, or null while healthy. */
    public Throwable failure() {
        return engine.failure();
    }

    /** The leader's first log index when this node is behind it and needs a checkpoint, or null. */
    public TermIndex checkpointNeeded() {
        return catchUp.needed();
    }

    public long leaderChanges() {
        return leaderChanges.get();
    }

    public long snapshotsTaken() {
        return snapshots.snapshotsTaken();
    }

    /**
     * The engine's statistics, or null while it is paused or closed.
     *
     * @throws EngineException if the engine fails to list its directory
     */
    public EngineStats engineStats() {
        return engine.stats();
    }
}
