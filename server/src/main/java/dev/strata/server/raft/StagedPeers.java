package dev.strata.server.raft;

import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;

import java.util.List;
import java.util.function.Predicate;

/**
 * The peers a leader sends its log to that are in no configuration yet: the members it is
 * adding and still brings up to date before the new configuration is written ("staging", in
 * Ratis's words).
 *
 * <p>Why the leader must know them: when a purge of the log removes an entry that a log
 * appender is reading to send, the read fails ("Log entry not found") and the appender stops.
 * Ratis 3.3.0 starts a new one only for a peer of the current configuration
 * ({@code LeaderStateImpl.restart}), so a staged peer's appender is gone for good. Worse, the
 * add then completes (its last report was "caught up enough"), and the new member hears
 * nothing until another node leads. Seen in the fault-injection soak under the membership
 * nemesis. So while the leader stages a peer it reports no checkpoint to Ratis, which would
 * purge the log ({@link KvStateMachine#takeSnapshot()}). Staging ends when the peer catches up or fails
 * to make progress, so the log's growth is bounded by it.
 */
final class StagedPeers {
    private StagedPeers() {}

    /** The staged peers of {@code division}; none unless it leads. */
    static List<RaftPeerId> of(RaftServer.Division division) {
        RaftConfiguration conf = division.getRaftConf();
        return of(division.getInfo().getRoleInfoProto(),
                id -> conf.getPeer(id, RaftPeerRole.FOLLOWER, RaftPeerRole.LISTENER) != null);
    }

    /**
     * The followers of a leader's role report that {@code inConfiguration} does not hold, by the
     * test Ratis applies before it restarts an appender (a voter or a listener, of the current
     * configuration or, during a change, the previous one).
     */
    static List<RaftPeerId> of(RoleInfoProto role, Predicate<RaftPeerId> inConfiguration) {
        if (role.getRole() != RaftPeerRole.LEADER) {
            return List.of();
        }
        return role.getLeaderInfo().getFollowerInfoList().stream()
                .map(f -> RaftPeerId.valueOf(f.getId().getId()))
                .filter(inConfiguration.negate())
                .toList();
    }
}
