package dev.strata.server.raft;

import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.internal.v1.MemberRecord;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Records a node in the replicated member directory once it runs as a voter, unless a record
 * exists (the one member-add wrote wins; a node whose peer list does not name it has no address
 * to record and waits for that one). The record also says the node has run:
 * {@link ReplacedDiskGuard} holds it back if it starts again on an empty disk. Checks every
 * second, on the node's timer thread, until the record is applied here, then logs it once.
 */
final class DirectorySelfRecord {
    private static final Logger LOG = LoggerFactory.getLogger(DirectorySelfRecord.class);
    private static final long RETRY_SECONDS = 1;

    private final long nodeId;
    private final RaftPeerId peerId;
    /** The client address the node's peer list gives it, or null when the list does not name it. */
    private final String configuredAddress;
    private final KvStateMachine stateMachine;
    private final Supplier<RaftServer.Division> division;
    private final Function<Command, CompletableFuture<?>> write;
    private final ScheduledExecutorService timers;
    private volatile boolean stopped;

    DirectorySelfRecord(long nodeId, RaftPeerId peerId, String configuredAddress, KvStateMachine stateMachine,
                        Supplier<RaftServer.Division> division, Function<Command, CompletableFuture<?>> write,
                        ScheduledExecutorService timers) {
        this.nodeId = nodeId;
        this.peerId = peerId;
        this.configuredAddress = configuredAddress;
        this.stateMachine = stateMachine;
        this.division = division;
        this.write = write;
        this.timers = timers;
    }

    /** Starts checking; call once the Raft server runs. */
    void start() {
        later();
    }

    /** Stops checking (the node is closing). */
    void stop() {
        stopped = true;
    }

    private void check() {
        if (stopped) {
            return;
        }
        String recorded = stateMachine.memberAddress(nodeId);
        if (recorded != null) {
            // The fault-injection harness waits for this line before it wipes a node in place.
            LOG.info("the member directory records node {} at {}", nodeId, recorded);
            return;
        }
        RaftServer.Division d = division.get();
        boolean voter = d != null && d.getRaftConf().getPeer(peerId, RaftPeerRole.FOLLOWER) != null;
        if (!voter || configuredAddress == null || d.getInfo().getLeaderId() == null || d.getInfo().getLastAppliedIndex() < 1) {
            later();
            return;
        }
        write.apply(Command.newBuilder().setSetMember(MemberRecord.newBuilder().setId(nodeId).setClientAddress(configuredAddress))
                        .build())
                .whenComplete((reply, failure) -> {
                    if (failure != null) {
                        LOG.debug("node {}: recording its client address failed, will retry: {}", nodeId, failure.toString());
                    }
                    later();
                });
    }

    private void later() {
        try {
            timers.schedule(this::check, RETRY_SECONDS, TimeUnit.SECONDS);
        } catch (RejectedExecutionException e) {
            // The node is closing: its timers take no more work, and the record can wait for its next start.
        }
    }
}
