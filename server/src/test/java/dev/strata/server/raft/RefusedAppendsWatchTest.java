package dev.strata.server.raft;

import org.junit.jupiter.api.Test;

import static dev.strata.server.raft.RefusedAppendsWatch.REFUSING_FOR_MS;
import static dev.strata.server.raft.RefusedAppendsWatch.followerRefusesAppends;
import static dev.strata.server.raft.RefusedAppendsWatch.idleSinceThePlaceholderWasReplaced;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a follower that answers but takes no append gets a notice anyway: the rule on its own
 * (the eighth soak's run 104: next index 17938, nothing ever matched; the eleventh soak's run
 * 294: next index 29990 right after a match at 29989, the leader's log running on), and the
 * watch's clocks driven round by round with a fake clock, heartbeat by heartbeat, including
 * the idle leader whose first new entry must not find its current followers "refusing".
 */
class RefusedAppendsWatchTest {
    private static final long NONE = -1;
    private static final long HEARTBEAT_MS = 500;

    private long now = 1_000_000;
    private final RefusedAppendsWatch watch = new RefusedAppendsWatch(now);

    /** Rounds one heartbeat apart for {@code ms}, the follower answering each; whether any was due. */
    private boolean roundsFor(long ms, long next, long match, long leaderNext) {
        boolean due = false;
        for (long t = 0; t < ms; t += HEARTBEAT_MS) {
            now += HEARTBEAT_MS;
            due |= watch.noticeDue(now, next, match, leaderNext, 100, NONE);
        }
        return due;
    }

    @Test
    void aFollowerThatAnswersButTakesNoAppendForLongGetsANotice() {
        assertThat(followerRefusesAppends(17938, NONE, 17938, REFUSING_FOR_MS, 0, 200)).isTrue();
    }

    @Test
    void aFollowerThatTookEveryEntryBeforeItsNextButNoneOfTheLeadersLaterOnesGetsANotice() {
        assertThat(followerRefusesAppends(29990, 29989, 30012, REFUSING_FOR_MS, REFUSING_FOR_MS, 200)).isTrue();
    }

    @Test
    void aFollowerThatHasTakenEverythingTheLeaderHasIsNotRefusing() {
        assertThat(followerRefusesAppends(17938, 17937, 17938, 60_000, 60_000, 200)).isFalse();
    }

    @Test
    void aFollowerIsGivenTimeBeforeANotice() {
        assertThat(followerRefusesAppends(17938, NONE, 17938, REFUSING_FOR_MS - 1, 0, 200)).isFalse();
        assertThat(followerRefusesAppends(29990, 29989, 30012, 60_000, REFUSING_FOR_MS - 1, 200)).isFalse();
    }

    @Test
    void aFollowerThatAnswersNothingIsCutOffNotRefusing() {
        assertThat(followerRefusesAppends(17938, NONE, 17938, 60_000, 0, 61_000)).isFalse();
        assertThat(followerRefusesAppends(29990, 29989, 30012, 60_000, 60_000, 61_000)).isFalse();
    }

    @Test
    void aCurrentFollowerOfAnIdleLeaderAfterThePlaceholderIsNotRefusing() {
        assertThat(idleSinceThePlaceholderWasReplaced(30600, NONE, 30600, 30600)).isTrue();
    }

    @Test
    void onceTheLeaderHasANewEntryAnUnmovedFollowerIsRefusingAgain() {
        assertThat(idleSinceThePlaceholderWasReplaced(30600, NONE, 30600, 30601)).isFalse();
    }

    @Test
    void aFollowerThatAnsweredAnotherNextIndexIsJudgedAsAnyOther() {
        assertThat(idleSinceThePlaceholderWasReplaced(17938, NONE, 30600, 30600)).isFalse();
        assertThat(idleSinceThePlaceholderWasReplaced(17938, NONE, NONE, 17938)).as("no placeholder replaced").isFalse();
    }

    @Test
    void run294AFollowerRefusingTheLeadersLaterEntriesGetsOneNoticePerPeriod() {
        assertThat(roundsFor(HEARTBEAT_MS, 29990, 29989, 30012)).as("first seen here").isFalse();
        assertThat(roundsFor(REFUSING_FOR_MS - HEARTBEAT_MS, 29990, 29989, 30012)).isFalse();
        assertThat(roundsFor(HEARTBEAT_MS, 29990, 29989, 30012)).as("the period is over").isTrue();
        assertThat(roundsFor(REFUSING_FOR_MS - HEARTBEAT_MS, 29990, 29989, 30012)).as("one per period").isFalse();
        assertThat(roundsFor(HEARTBEAT_MS, 29990, 29989, 30012)).isTrue();
    }

    @Test
    void theFirstEntryAfterAnIdleSpellDoesNotFindACurrentFollowerRefusing() {
        assertThat(roundsFor(60_000, 500, 499, 500)).as("idle: nothing to send").isFalse();
        // The leader appends an entry; the follower takes it two heartbeats later.
        assertThat(roundsFor(2 * HEARTBEAT_MS, 500, 499, 501)).isFalse();
        assertThat(roundsFor(60_000, 501, 500, 501)).isFalse();
    }

    @Test
    void aFollowerThatKeepsTakingEntriesIsNeverRefusing() {
        for (long i = 0; i < 200; i++) {
            assertThat(roundsFor(HEARTBEAT_MS, 500 + i, 499 + i, 510 + i)).isFalse();
        }
    }

    @Test
    void run104AFollowerWhoseNextIsPastAnUnconfirmedEntryGetsOneNoticePerPeriod() {
        assertThat(roundsFor(HEARTBEAT_MS, 301, NONE, 420)).as("first seen here").isFalse();
        assertThat(roundsFor(REFUSING_FOR_MS - HEARTBEAT_MS, 301, NONE, 420)).isFalse();
        assertThat(roundsFor(HEARTBEAT_MS, 301, NONE, 420)).as("the period is over").isTrue();
        assertThat(roundsFor(REFUSING_FOR_MS - HEARTBEAT_MS, 301, NONE, 420)).as("one per period").isFalse();
        assertThat(roundsFor(HEARTBEAT_MS, 301, NONE, 420)).isTrue();
    }

    @Test
    void aFollowerBackFromASilenceLongerThanThePeriodIsGivenAWholePeriod() {
        silentFor(30_000, 29990, 29989, 30012);
        assertThat(roundsFor(REFUSING_FOR_MS - HEARTBEAT_MS, 29990, 29989, 30012)).as("answering again").isFalse();
        assertThat(roundsFor(HEARTBEAT_MS, 29990, 29989, 30012)).isTrue();
    }

    @Test
    void aFollowerWhoseNextIsPastAnUnconfirmedEntryIsGivenAWholePeriodAfterASilence() {
        silentFor(30_000, 301, NONE, 420);
        assertThat(roundsFor(REFUSING_FOR_MS - HEARTBEAT_MS, 301, NONE, 420)).as("answering again").isFalse();
        assertThat(roundsFor(HEARTBEAT_MS, 301, NONE, 420)).isTrue();
    }

    /** Rounds one heartbeat apart for {@code ms}, the follower answering none of them. */
    private void silentFor(long ms, long next, long match, long leaderNext) {
        long lastAnswer = now;
        for (long t = 0; t < ms; t += HEARTBEAT_MS) {
            now += HEARTBEAT_MS;
            assertThat(watch.noticeDue(now, next, match, leaderNext, now - lastAnswer, NONE)).isFalse();
        }
    }

    @Test
    void aCurrentFollowerOfAnIdleLeaderAfterThePlaceholderGetsNoNotice() {
        for (long t = 0; t < 60_000; t += HEARTBEAT_MS) {
            now += HEARTBEAT_MS;
            assertThat(watch.noticeDue(now, 30600, NONE, 30600, 100, 30600)).isFalse();
        }
    }
}
