package dev.strata.client;

/**
 * What one node says about itself.
 *
 * @param memberId       the node that answered
 * @param role           LEADER, FOLLOWER, CANDIDATE, LEARNER or UNKNOWN
 * @param leaderId       the leader it knows, 0 when none
 * @param leaderEndpoint the leader's gRPC address, empty when unknown
 * @param term           its Raft term
 * @param commitIndex    the last log index it knows committed
 * @param appliedIndex   the last log index its state machine applied
 * @param liveBytes      estimated size of its data
 */
public record NodeStatus(long memberId, String role, long leaderId, String leaderEndpoint, long term, long commitIndex,
                         long appliedIndex, long liveBytes) {}
