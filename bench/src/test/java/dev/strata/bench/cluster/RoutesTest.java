package dev.strata.bench.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoutesTest {
    private static final List<MemberView> THREE = List.of(
            new MemberView("a:1", 11, 22, null), new MemberView("b:2", 22, 22, null), new MemberView("c:3", 33, 22, null));

    @Test
    void leaderIsTheMemberTheOthersName() {
        Route r = Routes.resolve(Placement.LEADER, THREE);
        assertThat(r.endpoints()).containsExactly(1);
        assertThat(r.addresses()).containsExactly("b:2");
        assertThat(r.endpointOf(12345)).isEqualTo(1);
    }

    @Test
    void followerIsTheFirstAnsweringMemberThatIsNotTheLeader() {
        List<MemberView> firstDown = List.of(MemberView.failed("a:1", "UNAVAILABLE"), THREE.get(1), THREE.get(2));
        assertThat(Routes.resolve(Placement.FOLLOWER, THREE).endpoints()).containsExactly(0);
        assertThat(Routes.resolve(Placement.FOLLOWER, firstDown).endpoints()).containsExactly(2);
    }

    @Test
    void allCyclesOverEveryEndpoint() {
        Route r = Routes.resolve(Placement.ALL, THREE);
        assertThat(List.of(r.endpointOf(0), r.endpointOf(1), r.endpointOf(2), r.endpointOf(3))).containsExactly(0, 1, 2, 0);
    }

    @Test
    void theMajorityViewOfTheLeaderWins() {
        List<MemberView> split = List.of(new MemberView("a:1", 11, 11, null), new MemberView("b:2", 22, 33, null),
                new MemberView("c:3", 33, 33, null));
        assertThat(Routes.leaderId(split)).isEqualTo(33);
    }

    @Test
    void noLeaderIsAClearError() {
        List<MemberView> none = List.of(new MemberView("a:1", 11, 0, null), MemberView.failed("b:2", "UNAVAILABLE"));
        assertThatThrownBy(() -> Routes.resolve(Placement.LEADER, none)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no leader").hasMessageContaining("b:2 error UNAVAILABLE");
    }

    @Test
    void aLoneMemberHasNoFollower() {
        List<MemberView> one = List.of(new MemberView("a:1", 11, 11, null));
        assertThatThrownBy(() -> Routes.resolve(Placement.FOLLOWER, one)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no follower");
    }
}
