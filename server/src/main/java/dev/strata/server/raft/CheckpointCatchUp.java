package dev.strata.server.raft;

import dev.strata.engine.Checkpoint;
import dev.strata.engine.Engine;
import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.proto.internal.v1.ContentId;
import dev.strata.proto.internal.v1.Plan;
import dev.strata.transfer.CheckpointFetcher;
import dev.strata.transfer.CheckpointInstall;
import dev.strata.transfer.CheckpointStats;
import dev.strata.transfer.StagedCheckpoint;
import dev.strata.transfer.StagingArea;
import io.grpc.ChannelCredentials;
import org.apache.ratis.proto.RaftProtos.RaftPeerProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A follower catching up from a checkpoint when the leader no longer holds the log it needs.
 *
 * <p>Ratis asks ({@link #onInstallNotice}) always once for a new member (it lets every
 * bootstrapping follower try), and whenever the leader has purged entries this node still needs.
 * When the leader can still send the log (see {@link #leaderLogReaches}), there is nothing to
 * install: the answer "no snapshot" (null) makes the leader send the log. Otherwise the fetch runs
 * on its own thread (Ratis answers the leader "in progress" meanwhile): it offers the files of a
 * local checkpoint for reuse, stages and verifies what the leader sends, and completes with the
 * staged state's (term, index). Ratis then pauses the state machine and reinitializes it, which
 * calls {@link #installStaged()} with the engine closed; the log after it is replayed. A failed
 * fetch completes exceptionally; Ratis asks again at the leader's next notice, and the files
 * staged so far are kept.
 */
final class CheckpointCatchUp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointCatchUp.class);

    private final AppliedEngine engine;
    private final Supplier<TermIndex> lastApplied;
    private final Supplier<RaftServer.Division> division;
    private final CheckpointStats stats;
    private final ExecutorService fetchExecutor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "strata-checkpoint-install");
        t.setDaemon(true);
        return t;
    });
    private volatile StagedCheckpoint staged;
    private volatile int failedFetches;
    private volatile TermIndex needed;
    private final ChannelCredentials credentials;
    private final Function<RaftPeer, String> leaderClientAddresses;

    /**
     * @param lastApplied the state machine's last applied entry
     * @param division    this node's Raft division; an {@link java.io.UncheckedIOException} when Ratis has none
     * @param stats       checkpoint traffic counters, this node as receiver
     * @param credentials how to reach other members' client ports
     * @param leaderClientAddresses a leader's client address, where its checkpoint service listens (null when unknown)
     */
    CheckpointCatchUp(AppliedEngine engine, Supplier<TermIndex> lastApplied, Supplier<RaftServer.Division> division,
                      CheckpointStats stats, ChannelCredentials credentials, Function<RaftPeer, String> leaderClientAddresses) {
        this.engine = engine;
        this.lastApplied = lastApplied;
        this.division = division;
        this.stats = stats;
        this.credentials = credentials;
        this.leaderClientAddresses = leaderClientAddresses;
    }

    /**
     * Whether a leader whose log starts at {@code leaderFirst} can send this node the log from
     * {@code next} on. It needs more than the entry at {@code next}: an append names the entry
     * before it, whose term the leader knows only while that entry is in its log (or is exactly
     * its snapshot, and then Ratis sends no notice). So a log starting at {@code next} itself is
     * not enough: the leader would keep sending notices and never an append, for good, and the node must
     * fetch a checkpoint. The exception is a new, empty node: the log's first entry has nothing
     * before it.
     */
    static boolean leaderLogReaches(long next, long leaderFirst) {
        return leaderFirst < next || leaderFirst == RaftLog.LEAST_VALID_LOG_INDEX && next == leaderFirst;
    }

    /** Ratis's notice that this node may need a checkpoint; see the class comment. */
    CompletableFuture<TermIndex> onInstallNotice(RoleInfoProto roleInfo, TermIndex firstTermIndexInLog) {
        long next = lastApplied.get().getIndex() + 1;
        if (leaderLogReaches(next, firstTermIndexInLog.getIndex())) {
            LOG.info("the leader's log starts at {}, and this node needs it from index {}: catching up from the log",
                    firstTermIndexInLog, next);
            return CompletableFuture.completedFuture(null);
        }
        needed = firstTermIndexInLog;
        RaftPeerProto leaderInfo = roleInfo.getFollowerInfo().getLeaderInfo().getId();
        RaftPeer notifier = RaftPeer.newBuilder().setId(RaftPeerId.valueOf(leaderInfo.getId()))
                .setAddress(leaderInfo.getAddress()).build();
        LOG.info("this node needs the log from index {} but the leader ({}) keeps it from {}: fetching a checkpoint",
                next, notifier.getId(), firstTermIndexInLog);
        int failures = failedFetches;
        long delayMillis = failures == 0 ? 0 : Math.min(30_000, 500L << Math.min(failures, 6));
        return CompletableFuture.supplyAsync(() -> fetch(notifier, firstTermIndexInLog.getIndex() - 1),
                CompletableFuture.delayedExecutor(delayMillis, TimeUnit.MILLISECONDS, fetchExecutor));
    }

    private TermIndex fetch(RaftPeer notifier, long minIndex) {
        Engine e = engine.current();
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
            StagedCheckpoint fetched;
            try (CheckpointFetcher fetcher = new CheckpointFetcher(new StagingArea(stagingDir()), stats, 20,
                    Duration.ofSeconds(60), credentials)) {
                fetched = fetcher.fetch(new CheckpointFetcher.Request(applied, hasState, false, minIndex, reusable),
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
                        + "the new leader's log or its own notice decides what this node needs", fetched.index(), asked, leading);
                throw new CompletionException(new NodeUnavailableException("leadership moved from node " + asked + " to node "
                        + leading + " while fetching a checkpoint"));
            }
            staged = fetched;
            return TermIndex.valueOf(fetched.term(), fetched.index());
        } catch (CompletionException leadershipMoved) {
            throw leadershipMoved;
        } catch (IOException | RuntimeException ex) {
            failedFetches++;
            stats.failedInstalls.incrementAndGet();
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
            RaftServer.Division d = division.get();
            RaftPeerId leader = d.getInfo().getLeaderId();
            if (leader == null || leader.equals(notifier.getId())) {
                return notifier;
            }
            RaftPeer inConf = d.getRaftConf().getPeer(leader);
            return inConf != null ? inConf : RaftPeer.newBuilder().setId(leader).build();
        } catch (RuntimeException e) {
            LOG.debug("no current leader known: {}", e.toString());
            return notifier;
        }
    }

    /**
     * Installs the fetched checkpoint, if one is staged, into the closed engine's directory. Every
     * file was verified when it was staged; a failure here (the disk) is thrown, which stops the
     * node rather than let it apply the log after the checkpoint's index to an older state.
     */
    void installStaged() throws IOException {
        StagedCheckpoint s = staged;
        if (s == null) {
            return;
        }
        staged = null;
        long started = System.nanoTime();
        try {
            CheckpointInstall.install(s, engine.dir(), engine.options());
        } catch (IOException | RuntimeException e) {
            stats.failedInstalls.incrementAndGet();
            throw new IOException("installing the checkpoint at index " + s.index() + " into " + engine.dir() + " failed: "
                    + e.getMessage(), e);
        }
        (s.kind() == Plan.Kind.FULL ? stats.fullInstalls : stats.deltaInstalls).incrementAndGet();
        try {
            FileLinks.deleteTree(stagingDir()); // installed: nothing staged is needed any more
        } catch (IOException e) {
            LOG.warn("cannot clear the checkpoint staging directory {}: {}", stagingDir(), e.toString());
        }
        LOG.info("checkpoint installed at ({}, {}): {}; install {} ms", s.term(), s.index(), s.report(),
                (System.nanoTime() - started) / 1_000_000);
    }

    private Path stagingDir() {
        return engine.dir().resolveSibling("checkpoint-staging");
    }

    /** Notes that the state machine applied {@code ti}: a needed checkpoint it reaches is needed no more. */
    void applied(TermIndex ti) {
        TermIndex n = needed;
        if (n != null && ti.getIndex() >= n.getIndex()) {
            needed = null;
        }
    }

    /** Notes that the engine reopened: whatever was needed is decided again at the leader's next notice. */
    void reopened() {
        needed = null;
    }

    /** The leader's first log index when this node is behind it and needs a checkpoint, or null. */
    TermIndex needed() {
        return needed;
    }

    @Override
    public void close() {
        fetchExecutor.shutdownNow();
    }
}
