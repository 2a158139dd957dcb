package dev.strata.server.raft;

import org.apache.ratis.proto.RaftProtos.LeaderInfoProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.RaftPeerId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class OrphanedMemberGuardTest {
    private static final RaftPeerId TWO = RaftPeerId.valueOf("2");
    private static final RaftPeerId THREE = RaftPeerId.valueOf("3");
    private static final RaftPeerId FOUR = RaftPeerId.valueOf("4");
    /** Node 1's configuration: voters 2 and 3, learner 4. */
    private static final Set<RaftPeerId> OTHERS = Set.of(TWO, THREE, FOUR);

    private final OrphanedMemberGuard guard = new OrphanedMemberGuard();

    private static RoleInfoProto leaderSendingTo(long term, String... followers) {
        LeaderInfoProto.Builder leader = LeaderInfoProto.newBuilder().setTerm(term);
        for (String f : followers) {
            leader.addFollowerInfo(ServerRpcProto.newBuilder()
                    .setId(RaftPeerProto.newBuilder().setId(RaftPeerId.valueOf(f).toByteString())));
        }
        return RoleInfoProto.newBuilder().setRole(RaftPeerRole.LEADER).setLeaderInfo(leader).build();
    }

    private List<RaftPeerId> checkTimes(int times, RoleInfoProto role) {
        List<RaftPeerId> last = List.of();
        for (int i = 0; i < times; i++) {
            last = guard.check(role, OTHERS);
        }
        return last;
    }

    @Test
    void aLeaderSendingToEveryMemberNeverStepsDown() {
        assertThat(checkTimes(10, leaderSendingTo(5, "2", "3", "4"))).isEmpty();
    }

    @Test
    void aMemberMissedOnEnoughChecksInARowIsNamedOnce() {
        RoleInfoProto withoutFour = leaderSendingTo(5, "2", "3");
        assertThat(checkTimes(OrphanedMemberGuard.SIGHTINGS - 1, withoutFour)).isEmpty();
        assertThat(guard.check(withoutFour, OTHERS)).containsExactly(FOUR);
        // Counted afresh, so a step-down that fails is asked for again only after as many checks.
        assertThat(checkTimes(OrphanedMemberGuard.SIGHTINGS - 1, withoutFour)).isEmpty();
        assertThat(guard.check(withoutFour, OTHERS)).containsExactly(FOUR);
    }

    @Test
    void aSenderThatComesBackStartsTheCountOver() {
        RoleInfoProto withoutFour = leaderSendingTo(5, "2", "3");
        checkTimes(OrphanedMemberGuard.SIGHTINGS - 1, withoutFour);
        // A restarted sender is briefly absent: Ratis removes the old one before it adds the new.
        guard.check(leaderSendingTo(5, "2", "3", "4"), OTHERS);
        assertThat(checkTimes(OrphanedMemberGuard.SIGHTINGS - 1, withoutFour)).isEmpty();
    }

    @Test
    void aNewTermStartsTheCountOver() {
        checkTimes(OrphanedMemberGuard.SIGHTINGS - 1, leaderSendingTo(5, "2", "3"));
        assertThat(guard.check(leaderSendingTo(6, "2", "3"), OTHERS)).isEmpty();
    }

    @Test
    void aFollowerChecksNothingAndForgetsWhatItSawAsLeader() {
        checkTimes(OrphanedMemberGuard.SIGHTINGS - 1, leaderSendingTo(5, "2", "3"));
        RoleInfoProto follower = RoleInfoProto.newBuilder().setRole(RaftPeerRole.FOLLOWER).build();
        assertThat(checkTimes(OrphanedMemberGuard.SIGHTINGS, follower)).isEmpty();
        assertThat(guard.check(leaderSendingTo(5, "2", "3"), OTHERS)).isEmpty();
    }

    @Test
    void aSenderToAPeerOutsideTheConfigurationChangesNothing() {
        // A peer being added has a sender before it is a member (see StagedPeers).
        assertThat(checkTimes(10, leaderSendingTo(5, "2", "3", "4", "6"))).isEmpty();
    }
}
