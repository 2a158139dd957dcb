package dev.strata.server.raft;

import org.apache.ratis.server.raftlog.RaftLog;

/**
 * The leader's watch on one follower for the sign that it answers yet refuses every append: the
 * refused-appends rule of {@link SnapshotAwareLogAppender}. Not thread-safe: one appender's own
 * thread calls {@link #noticeDue} once per round of sending, with that round's clock reading.
 *
 * <p>Why a notice helps. A follower that Ratis 3.3.0 asked to install a checkpoint refuses every
 * append ("INCONSISTENCY", naming its own log's next index) until the install ends, and Ratis
 * ends it only at the leader's next notice. When the follower's answers put its next index
 * inside the leader's log, the leader has no reason to notify again, and the two wait for each
 * other for good. A notice lets the follower finish; a follower with no install under way
 * answers it ("catching up from the log") and goes on as before. Two shapes of it were seen:
 * <ul>
 *   <li>the entry before the follower's next index was never confirmed (a deposed leader, its
 *       log holding entries of its term after the checkpoint it fetched);
 *   <li>the leader has entries after the follower's next index and the follower takes none of
 *       them (over lossy links, a follower whose log ran ahead of what it
 *       had applied got a notice through a stale answer, fetched, and then refused, its next
 *       index right after its match index; the rule does not ask for that, so it covers the
 *       first shape too once the leader has later entries).
 * </ul>
 *
 * <p>What keeps a healthy follower from a notice. Both shapes need the follower's next and
 * match index to stay put for {@link #REFUSING_FOR_MS} while it answers (a cut-off follower
 * answers nothing and needs no notice; one silent for a whole period starts a new one when it
 * answers again: Ratis's leader retries a follower that fails at least every 5 s, so a refusing
 * follower answers more often than that). The second shape is timed from when the follower was
 * last seen caught up, moving or silent, not from its last move: a current follower of an idle
 * leader stays put for as long as the leader has nothing to send, and the first entry after the
 * idle spell must not find it "refusing" at once (that notified both followers of a TLS test
 * cluster together, and the write timed out).
 */
final class RefusedAppendsWatch {
    /** How long a follower may answer yet refuse every append before it gets a notice anyway. */
    static final long REFUSING_FOR_MS = 10_000;

    private long seenNext = RaftLog.INVALID_LOG_INDEX;
    private long seenMatch = RaftLog.INVALID_LOG_INDEX;
    /** When the follower's next or match index last changed, or it was last silent. */
    private long unchangedSince;
    /** When the follower was last seen moving, caught up with the leader's log, or silent. */
    private long behindSince;

    /** @param nowMs the clock reading of the appender's current round (monotonic, in milliseconds) */
    RefusedAppendsWatch(long nowMs) {
        this.unchangedSince = nowMs;
        this.behindSince = nowMs;
    }

    /**
     * Whether the follower should get a notice this round; after a yes, the next one comes a
     * whole period later at the earliest.
     *
     * @param nowMs         this round's clock reading (monotonic, in milliseconds)
     * @param next          the leader's next index for the follower
     * @param match         the leader's match index for the follower
     * @param leaderNext    the index after the leader's last entry
     * @param sinceAnswerMs how long ago the follower last answered
     * @param nextInPlaceOfThePlaceholder the next index the appender gave the follower in place of
     *                      Ratis's placeholder, or {@link RaftLog#INVALID_LOG_INDEX}
     */
    boolean noticeDue(long nowMs, long next, long match, long leaderNext, long sinceAnswerMs,
                      long nextInPlaceOfThePlaceholder) {
        boolean moved = next != seenNext || match != seenMatch;
        boolean silent = sinceAnswerMs >= REFUSING_FOR_MS;
        if (moved) {
            seenNext = next;
            seenMatch = match;
        }
        if (moved || silent) {
            unchangedSince = nowMs;
        }
        if (moved || silent || next >= leaderNext) {
            behindSince = nowMs;
        }
        if (moved || !followerRefusesAppends(next, match, leaderNext, nowMs - unchangedSince, nowMs - behindSince,
                sinceAnswerMs) || idleSinceThePlaceholderWasReplaced(next, match, nextInPlaceOfThePlaceholder, leaderNext)) {
            return false;
        }
        unchangedSince = nowMs;
        behindSince = nowMs;
        return true;
    }

    /**
     * Whether a follower answers but takes no append, in either shape (see the class comment):
     * the entry before its next index was never confirmed and neither index moved for the
     * period, or the leader has entries after its next index and for the period it neither moved
     * nor was caught up; and it answered within that period.
     *
     * @param unchangedForMs how long neither the next nor the match index has moved, nor the
     *                       follower fallen silent
     * @param behindForMs    how long the follower has been behind the leader's log without moving
     *                       or falling silent; at most {@code unchangedForMs}
     */
    static boolean followerRefusesAppends(long next, long match, long leaderNext, long unchangedForMs,
                                          long behindForMs, long sinceAnswerMs) {
        boolean gapStays = match + 1 < next && unchangedForMs >= REFUSING_FOR_MS && sinceAnswerMs < unchangedForMs;
        boolean laterEntriesRefused = next < leaderNext && behindForMs >= REFUSING_FOR_MS && sinceAnswerMs < behindForMs;
        return gapStays || laterEntriesRefused;
    }

    /**
     * Whether the follower's next index is still the one the appender put in place of Ratis's
     * placeholder, nothing has matched, and the leader has had nothing new to send since: a
     * current follower of an idle leader looks exactly like this (an answered heartbeat names no
     * match index), so the unmoved indexes show no refusal and call for no notice. The first
     * new entry either matches or, refused, makes {@link #followerRefusesAppends} apply again.
     */
    static boolean idleSinceThePlaceholderWasReplaced(long next, long match, long nextInPlaceOfThePlaceholder,
                                                      long leaderNext) {
        return match == RaftLog.INVALID_LOG_INDEX && next == nextInPlaceOfThePlaceholder && next == leaderNext;
    }
}
