package dev.strata.server.raft;

import org.apache.ratis.proto.RaftProtos.RaftPeerRole;

import java.util.Optional;

/**
 * One node's view of itself and the cluster, for Cluster/Status, /readyz and metrics.
 *
 * @param memberId          this node's id
 * @param role              its Raft role (LISTENER for a learner)
 * @param leaderId          the leader's id, 0 when unknown
 * @param term              current Raft term
 * @param commitIndex       highest log index known committed
 * @param appliedIndex      highest log index applied to the engine
 * @param durableIndex      highest log index durable in the engine's files (-1 before the first flush)
 * @param logStartIndex     first index still in the Raft log
 * @param member            whether the current configuration lists this node
 * @param needsCheckpoint   whether the leader purged entries this node still needs
 * @param failure           why this node stopped applying, or null
 */
public record NodeStatus(long memberId, RaftPeerRole role, long leaderId, long term, long commitIndex, long appliedIndex,
                         long durableIndex, long logStartIndex, boolean member, boolean needsCheckpoint, String failure) {
    /**
     * Why a running, healthy node in this state should not get traffic, or empty when it should:
     * it must be a member of a group with a known leader, and applied to within
     * {@code readyMaxLag} entries of the commit index ({@code strata.server.ready-max-lag}).
     */
    public Optional<String> notReady(long readyMaxLag) {
        if (!member) {
            return Optional.of("not a member of the cluster's configuration (yet)");
        }
        if (leaderId == 0) {
            return Optional.of("no leader is known");
        }
        if (needsCheckpoint) {
            return Optional.of("behind the leader's purged log; it needs a checkpoint");
        }
        long lag = commitIndex - appliedIndex;
        if (lag > readyMaxLag) {
            return Optional.of("applied index " + appliedIndex + " is " + lag + " entries behind the commit index "
                    + commitIndex + " (strata.server.ready-max-lag is " + readyMaxLag + ")");
        }
        return Optional.empty();
    }
}
