package dev.strata.server.raft;

import org.apache.ratis.proto.RaftProtos.LeaderInfoProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.RaftPeerId;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class StagedPeersTest {
    private static final Set<RaftPeerId> CONFIGURATION = Set.of(RaftPeerId.valueOf("1"), RaftPeerId.valueOf("2"),
            RaftPeerId.valueOf("3"));

    private static RoleInfoProto leaderSendingTo(String... followers) {
        LeaderInfoProto.Builder leader = LeaderInfoProto.newBuilder().setTerm(4);
        for (String f : followers) {
            leader.addFollowerInfo(ServerRpcProto.newBuilder()
                    .setId(RaftPeerProto.newBuilder().setId(RaftPeerId.valueOf(f).toByteString())));
        }
        return RoleInfoProto.newBuilder().setRole(RaftPeerRole.LEADER).setLeaderInfo(leader).build();
    }

    @Test
    void aLeaderSendingOnlyToMembersStagesNoOne() {
        assertThat(StagedPeers.of(leaderSendingTo("2", "3"), CONFIGURATION::contains)).isEmpty();
    }

    @Test
    void aPeerTheLeaderSendsToOutsideTheConfigurationIsStaged() {
        assertThat(StagedPeers.of(leaderSendingTo("2", "3", "6"), CONFIGURATION::contains))
                .containsExactly(RaftPeerId.valueOf("6"));
    }

    @Test
    void aFollowerStagesNoOne() {
        RoleInfoProto follower = RoleInfoProto.newBuilder().setRole(RaftPeerRole.FOLLOWER).build();
        assertThat(StagedPeers.of(follower, CONFIGURATION::contains)).isEmpty();
    }
}
