package dev.strata.server.raft;

import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The readiness rules a node's status answers for /readyz. */
class NodeStatusTest {
    private static NodeStatus status(boolean member, long leader, boolean needsCheckpoint, long commit, long applied) {
        return new NodeStatus(1, RaftPeerRole.FOLLOWER, leader, 3, commit, applied, applied, 1, member, needsCheckpoint, null);
    }

    @Test
    void aCaughtUpMemberWithALeaderIsReady() {
        assertThat(status(true, 2, false, 500, 500).notReady(100)).isEmpty();
        assertThat(status(true, 2, false, 600, 500).notReady(100)).as("exactly the allowed lag").isEmpty();
    }

    @Test
    void eachRuleSaysWhyNot() {
        assertThat(status(false, 2, false, 500, 500).notReady(100)).hasValueSatisfying(
                why -> assertThat(why).contains("not a member"));
        assertThat(status(true, 0, false, 500, 500).notReady(100)).hasValueSatisfying(
                why -> assertThat(why).contains("no leader"));
        assertThat(status(true, 2, true, 500, 500).notReady(100)).hasValueSatisfying(
                why -> assertThat(why).contains("needs a checkpoint"));
        assertThat(status(true, 2, false, 601, 500).notReady(100)).hasValueSatisfying(
                why -> assertThat(why).contains("101 entries behind").contains("ready-max-lag is 100"));
    }
}
