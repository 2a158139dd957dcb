package dev.strata.server.raft;

import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.rpc.CallId;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Makes a leader that no longer sends its log to a member of its own configuration step down,
 * so that a new leader, which starts a sender for every member, takes over.
 *
 * <p>How a member loses its sender (Ratis 3.3.0, still so in its main branch). A leader counts a
 * member as caught up only if it was a voter when the leader took office or became one through a
 * staged addition. A learner the leader added, a learner it promoted in place (as
 * {@link Membership#promote} does) and a member whose sender it restarted stay "bootstrapping".
 * When a later addition fails because a bootstrapping member made no progress for three election
 * timeouts, Ratis stops the senders of every bootstrapping member, not only the added one's
 * ({@code ConfigurationStagingState.fail}), and starts none again while it leads. The member then
 * hears nothing: a voter asks for votes forever (the others hear the leader and refuse), a learner
 * falls behind for good.
 *
 * <p>The repair. Every second the leader checks that it has a sender for each other voter and
 * learner of its configuration, while that configuration is stable (a change adds and removes
 * senders). Once {@value #SIGHTINGS} checks in a row miss the same member, it steps down. The next
 * leader, possibly this node again, starts in a new term with a sender for every member, each
 * counted as caught up. Writes pause for an election, which is rare: it takes a failed addition.
 */
final class OrphanedMemberGuard {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanedMemberGuard.class);
    /** How many checks in a row must miss a member's sender before the leader steps down. */
    static final int SIGHTINGS = 3;
    /** How often the leader checks, in milliseconds. */
    private static final long CHECK_PERIOD_MS = 1_000;
    /** How long a step-down may take before Ratis reports it failed (it then is checked again). */
    private static final long STEP_DOWN_TIMEOUT_MS = 5_000;

    /** The leader's term the sightings belong to; a new term starts them over. Checking thread only. */
    private long term = -1;
    /** Members seen without a sender, with how many checks in a row saw them so. Checking thread only. */
    private final Map<RaftPeerId, Integer> sightings = new HashMap<>();

    /**
     * Checks every {@value #CHECK_PERIOD_MS} ms on {@code timers} until they are shut down; a check
     * that fails is logged and the next one runs.
     *
     * @param server   this node's Raft server, which steps down
     * @param division this node's division once started, null before
     */
    static void scheduleOn(ScheduledExecutorService timers, long nodeId, RaftServer server,
                           Supplier<RaftServer.Division> division) {
        OrphanedMemberGuard guard = new OrphanedMemberGuard();
        timers.scheduleWithFixedDelay(() -> {
            try {
                RaftServer.Division d = division.get();
                if (d == null) {
                    return;
                }
                List<RaftPeerId> orphaned = guard.check(d.getInfo().getRoleInfoProto(),
                        otherMembers(d.getRaftConf(), d.getId()));
                if (!orphaned.isEmpty()) {
                    LOG.warn("node {} leads but has sent nothing to members {} for {} checks (Ratis 3.3.0 stops the "
                            + "senders of members it counts as bootstrapping when an addition fails): stepping down so "
                            + "that a new term's leader sends to every member", nodeId, orphaned, SIGHTINGS);
                    stepDown(server, d);
                }
            } catch (IOException | RuntimeException e) {
                LOG.error("node {}: checking that the leader sends to every member: {}", nodeId, e.toString(), e);
            }
        }, CHECK_PERIOD_MS, CHECK_PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    private static void stepDown(RaftServer server, RaftServer.Division d) throws IOException {
        server.transferLeadershipAsync(new TransferLeadershipRequest(ClientId.randomId(), d.getId(),
                        d.getGroup().getGroupId(), CallId.getAndIncrement(), null, STEP_DOWN_TIMEOUT_MS))
                .whenComplete((reply, failure) -> {
                    Throwable problem = failure != null ? failure : reply.getException();
                    if (problem != null) {
                        LOG.warn("{}: stepping down did not succeed (checked again in {} ms): {}", d.getId(),
                                CHECK_PERIOD_MS, problem.toString());
                    }
                });
    }

    /**
     * One check of this node's role.
     *
     * @param otherMembers what {@link #otherMembers} gives for this node's configuration
     * @return the members missed on {@value #SIGHTINGS} checks in a row (the leader should step
     * down), or none
     */
    List<RaftPeerId> check(RoleInfoProto role, Set<RaftPeerId> otherMembers) {
        if (role.getRole() != RaftPeerRole.LEADER) {
            sightings.clear();
            return List.of();
        }
        if (role.getLeaderInfo().getTerm() != term) {
            term = role.getLeaderInfo().getTerm();
            sightings.clear();
        }
        Set<RaftPeerId> sentTo = role.getLeaderInfo().getFollowerInfoList().stream()
                .map(f -> RaftPeerId.valueOf(f.getId().getId())).collect(Collectors.toSet());
        Set<RaftPeerId> missing = otherMembers.stream().filter(id -> !sentTo.contains(id)).collect(Collectors.toSet());
        sightings.keySet().retainAll(missing);
        missing.forEach(id -> sightings.merge(id, 1, Integer::sum));
        List<RaftPeerId> orphaned = sightings.entrySet().stream().filter(e -> e.getValue() >= SIGHTINGS)
                .map(Map.Entry::getKey).sorted(Comparator.comparing(RaftPeerId::toString)).toList();
        if (!orphaned.isEmpty()) {
            sightings.clear(); // a step-down that fails is tried again after as many checks
        }
        return orphaned;
    }

    /**
     * The voters and learners of {@code conf} other than {@code self}; none while the
     * configuration changes, as the leader then adds and removes senders.
     */
    static Set<RaftPeerId> otherMembers(RaftConfiguration conf, RaftPeerId self) {
        if (!conf.getPreviousPeers().isEmpty()) {
            return Set.of();
        }
        return Stream.concat(conf.getCurrentPeers(RaftPeerRole.FOLLOWER).stream(),
                        conf.getCurrentPeers(RaftPeerRole.LISTENER).stream())
                .map(RaftPeer::getId)
                .filter(id -> !id.equals(self))
                .collect(Collectors.toSet());
    }
}
