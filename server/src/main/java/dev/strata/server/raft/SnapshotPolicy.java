package dev.strata.server.raft;

import dev.strata.engine.Engine;
import dev.strata.engine.EngineException;
import dev.strata.engine.WriteBatch;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SnapshotManagementRequest;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * When Ratis hears of a snapshot, and what it is told. A Strata "snapshot" is the engine's own
 * files: Ratis may purge its log up to the durable marker. Two things ask Ratis for one: a
 * background checkpoint every so many entries or bytes ({@link CheckpointScheduler}), and a
 * flush that made enough of the log durable ({@link LogPurgeTrigger}). Ratis then calls
 * {@link #takeSnapshot} on the apply thread, which reports the durable marker, or takes an
 * operator's checkpoint there so that it holds every entry applied before it.
 */
final class SnapshotPolicy {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotPolicy.class);
    private static final ClientId SNAPSHOT_CLIENT = ClientId.randomId();

    private final AppliedEngine engine;
    private final Supplier<TermIndex> lastApplied;
    private final Supplier<RaftServer.Division> division;
    private final CheckpointScheduler checkpoints;
    private final LogPurgeTrigger logPurges;
    private final AtomicLong snapshotsTaken = new AtomicLong();
    private final AtomicLong snapshotCalls = new AtomicLong();
    private volatile List<RaftPeerId> deferredFor = List.of();

    /**
     * @param lastApplied              the state machine's last applied entry
     * @param division                 this node's Raft division (known once Ratis started it); an
     *                                 {@link UncheckedIOException} when Ratis has none
     * @param snapshotThresholdEntries take a checkpoint after this many log entries since the last one
     * @param snapshotThresholdBytes   or after this many log bytes
     * @param logSegmentSize           the Raft log's segment size: after each segment's worth of log that
     *                                 the engine's flushes made durable, Ratis is asked to purge it
     */
    SnapshotPolicy(AppliedEngine engine, Supplier<TermIndex> lastApplied, Supplier<RaftServer.Division> division,
                   long snapshotThresholdEntries, long snapshotThresholdBytes, long logSegmentSize) {
        this.engine = engine;
        this.lastApplied = lastApplied;
        this.division = division;
        this.checkpoints = new CheckpointScheduler("strata-checkpoint", snapshotThresholdEntries, snapshotThresholdBytes,
                snapshotsTaken::incrementAndGet, this::reportDurableIndex);
        this.logPurges = new LogPurgeTrigger(logSegmentSize, () -> {
            TermIndex d = engine.durable();
            return d == null ? 0 : d.getIndex();
        }, () -> CompletableFuture.runAsync(this::reportDurableIndex));
    }

    /** Counts an applied entry of {@code entryBytes} toward the next checkpoint and the next purge. */
    void applied(Engine e, int entryBytes) {
        checkpoints.applied(entryBytes, e::checkpoint);
        logPurges.applied(entryBytes);
    }

    /** When this node takes checkpoints; an operator's goes through {@link #checkpointNow(Duration)}. */
    CheckpointScheduler checkpoints() {
        return checkpoints;
    }

    /**
     * Tells Ratis how far it may purge the log: the index the engine's files hold. Periodic
     * checkpoints are taken in the background and only reported here. An operator's checkpoint
     * is taken here, on the apply thread, so that it holds every entry applied before it.
     */
    long takeSnapshot() throws IOException {
        boolean now = checkpoints.takeNowRequest();
        Engine e = engine.current();
        if (engine.failure() != null || e == null) {
            return engine.purgeableIndex(engine.lastKnownDurable());
        }
        if (deferForStagedPeers()) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        if (now) {
            checkpointOnApplyThread(e);
            // A peer whose staging began during the flush may already read the entries a purge
            // would remove. The checkpoint stays (it is valid for shipping); Ratis just does not
            // hear of it, so it purges nothing.
            if (deferForStagedPeers()) {
                return RaftLog.INVALID_LOG_INDEX;
            }
        }
        return engine.purgeableIndex(engine.durable());
    }

    /**
     * Makes everything applied durable in the engine's files: the applied (term, index) goes into a
     * marker-only batch, then the engine takes a checkpoint (a flush, and hard links that keep its
     * files for shipping). Runs on the apply thread.
     */
    private void checkpointOnApplyThread(Engine e) throws IOException {
        TermIndex applied = lastApplied.get();
        try {
            TermIndex d = engine.durable();
            // Entries that wrote nothing (configuration changes, leader no-ops) moved the applied
            // index past the last batch: record it with a marker-only batch at that index. When the
            // last applied entry wrote a batch, that batch already carries its marker.
            if (applied.getIndex() > e.lastSequence() && (d == null || applied.compareTo(d) > 0)) {
                e.write(new WriteBatch().setAppliedMarker(AppliedMarker.encode(applied, engine.revision())), applied.getIndex());
            }
            e.checkpoint(); // flushes, then pins the files for the checkpoint service
        } catch (EngineException ex) {
            throw new IOException("checkpoint at " + applied + " failed: " + ex.getMessage(), ex);
        }
        checkpoints.restartCount();
        snapshotsTaken.incrementAndGet();
        LOG.info("checkpoint: the engine's files hold the log up to {}", engine.durable());
    }

    /**
     * Takes a checkpoint on this node now, for an operator (a flush; the log may then be purged),
     * and returns the index it covers, at least the index applied at the call. Blocks the caller
     * until Ratis's snapshot, which runs on the apply thread, is done.
     *
     * @throws NodeUnavailableException when the state machine took none (it is adding a member, or failed)
     */
    long checkpointNow(Duration timeout) throws IOException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long appliedAtCall = lastApplied.get().getIndex();
        checkpoints.requestNow();
        try {
            while (true) {
                Duration left = Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
                RaftServer.Division d = division.get();
                RaftGroupMemberId member = d.getMemberId();
                SnapshotManagementRequest request = SnapshotManagementRequest.newCreate(SNAPSHOT_CLIENT, member.getPeerId(),
                        member.getGroupId(), snapshotCalls.incrementAndGet(), left.toMillis(), 1);
                RaftClientReply reply = RaftReplies.await(d.getRaftServer().snapshotManagementAsync(request), left,
                        "taking a checkpoint");
                RaftReplies.content(reply);
                if (!checkpoints.nowPending() || reply.getLogIndex() >= appliedAtCall) {
                    // Taken by the state machine, or answered by Ratis without asking it because the
                    // engine's files already held everything applied (its creation gap).
                    if (reply.getLogIndex() < 0) {
                        // The state machine took none: it is adding a member (see StagedPeers), or it failed.
                        throw new NodeUnavailableException("node " + member.getPeerId() + " took no checkpoint now"
                                + deferral().map(peers -> ": it is adding " + peers
                                + ", which reads the log a checkpoint would purge; retry once it has joined").orElse(""));
                    }
                    return reply.getLogIndex();
                }
                // Ratis answered a request made just before ours (the report of a background
                // checkpoint), whose snapshot began before we asked: ask again.
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException("taking a checkpoint did not finish within " + timeout.toMillis() + " ms");
                }
            }
        } finally {
            // Whatever ended the call, no later snapshot may take this request on the apply thread.
            checkpoints.cancelNow();
        }
    }

    /**
     * Whether this node leads and is adding a member it still brings up to date, when a
     * snapshot's purge could cut the log under the member's appender for good (see
     * {@link StagedPeers}). Says so in the log when deferring starts and ends; the purge waits for
     * the next checkpoint reported after the member has joined.
     */
    private boolean deferForStagedPeers() throws IOException {
        List<RaftPeerId> staged;
        try {
            staged = StagedPeers.of(division.get());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        List<RaftPeerId> before = deferredFor;
        deferredFor = staged;
        if (!staged.isEmpty() && before.isEmpty()) {
            LOG.info("checkpoint deferred: this leader is adding {}, whose log appender must not lose the entries a purge would remove",
                    staged);
        } else if (staged.isEmpty() && !before.isEmpty()) {
            LOG.info("checkpoint no longer deferred: {} joined, or its addition ended", before);
        }
        return !staged.isEmpty();
    }

    /** The staged peers for which the leader defers its snapshots now, if it does. */
    Optional<List<RaftPeerId>> deferral() {
        List<RaftPeerId> staged = deferredFor;
        return staged.isEmpty() ? Optional.empty() : Optional.of(staged);
    }

    /**
     * Asks Ratis for a snapshot after a background checkpoint, from the checkpoint's thread, or
     * after a flush made enough of the log durable, from a pool thread: the request is served by
     * the apply thread, whose {@link #takeSnapshot()} reports what the engine's files hold, and
     * Ratis purges its log up to that.
     */
    private void reportDurableIndex() {
        try {
            RaftServer.Division d = division.get();
            RaftGroupMemberId member = d.getMemberId();
            d.getRaftServer().snapshotManagementAsync(SnapshotManagementRequest.newCreate(SNAPSHOT_CLIENT,
                    member.getPeerId(), member.getGroupId(), snapshotCalls.incrementAndGet(), 60_000, 1))
                    .whenComplete((reply, e) -> {
                        if (e != null || !reply.isSuccess()) {
                            LOG.warn("reporting the engine's durable index to Raft failed; the log is purged after the next report: {}",
                                    e != null ? e.toString() : reply.getException());
                        }
                    });
        } catch (RuntimeException e) {
            LOG.warn("cannot report the engine's durable index to Raft; the log is purged after the next report: {}", e.toString());
        }
    }

    /** Checkpoints taken, periodic and operators'. */
    long snapshotsTaken() {
        return snapshotsTaken.get();
    }
}
