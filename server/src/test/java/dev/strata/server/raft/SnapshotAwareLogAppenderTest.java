package dev.strata.server.raft;

import org.junit.jupiter.api.Test;

import static dev.strata.server.raft.SnapshotAwareLogAppender.followerLostAcknowledgedEntries;
import static dev.strata.server.raft.SnapshotAwareLogAppender.followerSnapshotCoversThePreviousEntry;
import static dev.strata.server.raft.SnapshotAwareLogAppender.heartbeatMayNotCount;
import static dev.strata.server.raft.SnapshotAwareLogAppender.commitIndexNews;
import static dev.strata.server.raft.SnapshotAwareLogAppender.nextIndexIsAPlaceholder;
import static dev.strata.server.raft.SnapshotAwareLogAppender.noticesChangeNothing;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The appender's rules. When the leader may send entries to a follower without the entry
 * before them (the RATIS-2500 case: the leader's log starts at 121, the follower reported a
 * snapshot through 120 and needs 121 on), when a new appender's next index 0 is Ratis's
 * placeholder (the eighth soak's run 163: the leader's log started at 29218), and when notices
 * that changed nothing name the commit index + 1 as the log's first index (the tenth soak's run
 * 44), and when a follower has lost its log (an empty log after it acknowledged entries through
 * 34001). RefusedAppendsWatchTest has the refused-appends rule; CheckpointIT shows each in a
 * cluster.
 */
class SnapshotAwareLogAppenderTest {
    @Test
    void aCommitIndexTheFollowerLacksGoesOutAloneOnce() {
        assertThat(commitIndexNews(120, 119, 120, -1, -1)).isTrue();
        assertThat(commitIndexNews(120, 119, 120, 120, 120)).as("already on its way").isFalse();
        assertThat(commitIndexNews(121, 119, 121, 120, 120)).as("a later one").isTrue();
    }

    @Test
    void aFollowerThatKnowsTheCommitIndexGetsNoHeartbeatForIt() {
        assertThat(commitIndexNews(120, 120, 120, -1, -1)).isFalse();
    }

    @Test
    void aCommitIndexFoundShortOfTheFollowersDiskGoesOutAgainOnceMoreIsOnDisk() {
        // Committed by the other follower's reply while this one was still flushing 118..120.
        assertThat(commitIndexNews(120, 117, 117, 120, 117)).as("nothing more on disk yet").isFalse();
        assertThat(commitIndexNews(120, 117, 120, 120, 117)).as("its reply shows 120 on disk").isTrue();
        assertThat(commitIndexNews(120, 117, 118, 120, 117)).as("some of it on disk").isTrue();
    }

    @Test
    void aFollowerWhoseDiskHoldsNoMoreThanItsCommitIndexGetsNoRepeat() {
        assertThat(commitIndexNews(120, 118, 118, 120, 117)).isFalse();
    }

    @Test
    void aReadsHeartbeatAloneMayNotCount() {
        assertThat(heartbeatMayNotCount(41, 42)).as("only the heartbeat left").isTrue();
        assertThat(heartbeatMayNotCount(41, 41)).as("not sent yet: the trigger is still pending").isTrue();
    }

    @Test
    void aRequestAfterTheHeartbeatMakesASecondOneNeedless() {
        assertThat(heartbeatMayNotCount(41, 43)).isFalse();
    }

    @Test
    void anEmptyFollowerThatAcknowledgedEntriesLostItsLog() {
        assertThat(followerLostAcknowledgedEntries(0, 34001)).isTrue();
    }

    @Test
    void aNewOrUnknownFollowerWithAnEmptyLogLostNothing() {
        assertThat(followerLostAcknowledgedEntries(0, 0)).as("a leader's starting match index").isFalse();
        assertThat(followerLostAcknowledgedEntries(0, -1)).as("after a reset").isFalse();
    }

    @Test
    void aRefusalNamingALaterIndexIsLeftToRatis() {
        assertThat(followerLostAcknowledgedEntries(34002, 34001)).as("behind the leader, nothing lost").isFalse();
        assertThat(followerLostAcknowledgedEntries(30000, 34001))
                .as("a request overtaken by the follower's own checkpoint looks the same as a lost tail").isFalse();
    }

    @Test
    void aFollowerWhoseSnapshotEndsJustBeforeTheLeadersLogGetsEntries() {
        assertThat(followerSnapshotCoversThePreviousEntry(121, true, 120, 121)).isTrue();
    }

    @Test
    void aFollowerThatNeedsEntriesTheLeaderPurgedStillGetsACheckpoint() {
        assertThat(followerSnapshotCoversThePreviousEntry(100, true, 99, 121)).isFalse();
    }

    @Test
    void aSnapshotTheFollowerNeverReportedIsNotAssumed() {
        assertThat(followerSnapshotCoversThePreviousEntry(121, false, 120, 121)).isFalse();
    }

    @Test
    void theInitialSnapshotIndexIsNotTakenForASnapshot() {
        assertThat(followerSnapshotCoversThePreviousEntry(1, true, 0, 1)).isFalse();
    }

    @Test
    void aSnapshotThatEndsEarlierLeavesAGapAndGetsACheckpoint() {
        assertThat(followerSnapshotCoversThePreviousEntry(121, true, 110, 121)).isFalse();
    }

    @Test
    void aLeaderWithAnEmptyLogHasNothingToSend() {
        assertThat(followerSnapshotCoversThePreviousEntry(121, true, 120, -1)).isFalse();
    }

    @Test
    void nextIndexZeroBelowAPurgedLogIsAPlaceholder() {
        assertThat(nextIndexIsAPlaceholder(0, 29218)).isTrue();
    }

    @Test
    void nextIndexZeroIsRealWhileTheLeadersLogStillStartsAtZero() {
        assertThat(nextIndexIsAPlaceholder(0, 0)).isFalse();
        assertThat(nextIndexIsAPlaceholder(0, -1)).as("an empty log").isFalse();
    }

    @Test
    void aNextIndexTheFollowerReportedIsKept() {
        assertThat(nextIndexIsAPlaceholder(17938, 29218)).isFalse();
    }

    @Test
    void noticesThatChangedNothingForTheWholePeriodToAFollowerThatAnswersAreNoticed() {
        assertThat(noticesChangeNothing(RefusedAppendsWatch.REFUSING_FOR_MS, 300)).isTrue();
    }

    @Test
    void noticesAreGivenTimeToChangeSomething() {
        assertThat(noticesChangeNothing(RefusedAppendsWatch.REFUSING_FOR_MS - 1, 300)).isFalse();
    }

    @Test
    void aFollowerThatAnswersNothingIsCutOffNotStuck() {
        assertThat(noticesChangeNothing(60_000, 61_000)).isFalse();
    }
}
