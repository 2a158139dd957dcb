package dev.strata.server.raft;

import dev.strata.server.raft.StuckFollowerDetector.Follower;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class StuckFollowerDetectorTest {
    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    private final StuckFollowerDetector detector = new StuckFollowerDetector(Duration.ofSeconds(30), Duration.ofSeconds(5));

    @Test
    void aResponsiveFollowerWhoseCommitIndexStaysBehindIsNamedAfterTheDelayThenAgainOnlyAfterAnother() {
        Follower stuck = new Follower(3, 100, 200);
        Follower fine = new Follower(2, 500, 200);
        assertThat(detector.check(0, 500, List.of(stuck, fine), false)).isEmpty();
        assertThat(detector.check(29 * SECOND, 520, List.of(stuck, new Follower(2, 520, 100)), false)).isEmpty();
        assertThat(detector.check(30 * SECOND, 530, List.of(stuck, new Follower(2, 530, 100)), false)).isEqualTo(OptionalLong.of(3));
        assertThat(detector.check(31 * SECOND, 540, List.of(stuck, fine), false)).as("its clock started again").isEmpty();
        assertThat(detector.check(60 * SECOND, 550, List.of(stuck, fine), false)).isEqualTo(OptionalLong.of(3));
    }

    @Test
    void aFollowerThatCatchesUpSlowlyIsNotStuck() {
        for (int s = 0; s <= 120; s += 5) {
            Follower slow = new Follower(2, 10L * s, 100);
            assertThat(detector.check(s * SECOND, 10_000, List.of(slow), false)).as("at %d s", s).isEmpty();
        }
    }

    @Test
    void aFollowerThatDoesNotAnswerIsDownNotStuck() {
        assertThat(detector.check(0, 500, List.of(new Follower(2, 100, 6_000)), false)).isEmpty();
        assertThat(detector.check(60 * SECOND, 900, List.of(new Follower(2, 100, 66_000)), false)).isEmpty();
    }

    @Test
    void checkpointTrafficStartsEveryClockAgain() {
        Follower fetching = new Follower(2, 100, 100);
        assertThat(detector.check(0, 500, List.of(fetching), false)).isEmpty();
        assertThat(detector.check(20 * SECOND, 500, List.of(fetching), true)).isEmpty();
        assertThat(detector.check(40 * SECOND, 500, List.of(fetching), false)).isEmpty();
        assertThat(detector.check(69 * SECOND, 500, List.of(fetching), false)).isEmpty();
        assertThat(detector.check(70 * SECOND, 500, List.of(fetching), false)).isEqualTo(OptionalLong.of(2));
    }

    @Test
    void aFollowerLevelWithTheLeaderIsNeverStuck() {
        Follower level = new Follower(2, 500, 100);
        assertThat(detector.check(0, 500, List.of(level), false)).isEmpty();
        assertThat(detector.check(100 * SECOND, 500, List.of(level), false)).isEmpty();
    }
}
