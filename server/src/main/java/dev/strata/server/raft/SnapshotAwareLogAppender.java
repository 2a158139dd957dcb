package dev.strata.server.raft;

import org.apache.ratis.grpc.server.GrpcLogAppender;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.leader.FollowerInfo;
import org.apache.ratis.server.leader.LeaderState;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.raftlog.RaftLogIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Ratis's gRPC log appender (the leader's sender of log entries to one follower) with five
 * decisions corrected: it does not ask a follower to install a checkpoint that the follower has
 * just told it it holds, it does ask a follower that answers but refuses every append (see
 * {@link RefusedAppendsWatch}), it does not take Ratis's placeholder next index 0 for the
 * follower's (see {@link #nextIndexIsAPlaceholder}), it names a later first index in notices
 * that change nothing (see {@link #noticesChangeNothing}), it starts over with a follower that
 * lost its log (see {@link #followerLostAcknowledgedEntries}), and two that keep linearizable
 * reads from waiting for the periodic heartbeat: it tells a follower a new commit index at once
 * (see {@link #newAppendEntriesRequest}) and sends a read's heartbeat again when the first may
 * not count (see {@link #triggerHeartbeat}); and it does not spin on a follower whose stream
 * failed (see {@link #getWaitTimeMs}).
 *
 * <p>The loop this breaks (Ratis 3.3.0; RATIS-2500, fixed upstream after that release). An
 * append names the entry before its first one, and the leader knows that entry only while it
 * is in its log or is exactly its latest snapshot. When a follower needs the log from the very
 * index where the leader's log now starts, the leader knows neither, so it notifies the
 * follower to install a snapshot. If the follower's own snapshot ends just before that index,
 * Ratis's follower answers ALREADY_INSTALLED (without asking the state machine), and the leader
 * records the follower's snapshot index and next index... and then notifies it again, because
 * its test for "notify" never looks at what the follower reported. The exemption Ratis's
 * append builder already has for this case (send the entries without the previous one) is
 * never reached. No append is ever sent; the follower stays behind for good.
 *
 * <p>It happens after an ordinary rolling restart. A leader stopped gracefully hands
 * leadership over, then takes a checkpoint at its last applied entry, the last of its term.
 * Ratis starts a new log segment at every change of term, so once the successor purges its
 * log through its own checkpoint, its log starts exactly at the first entry of its term: the
 * entry the restarted node needs next. Seen in the fault-injection soak (restart nemesis).
 *
 * <p>Sending the entries without the previous one is safe here: the follower's snapshot holds
 * only committed entries, which every log agrees on, so the consistency check the previous
 * entry serves cannot fail; and a follower whose log differs after its snapshot truncates on
 * the append as usual.
 */
final class SnapshotAwareLogAppender extends GrpcLogAppender {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotAwareLogAppender.class);
    /** How long after a read's heartbeat the appender checks whether it needs another. */
    static final long SECOND_HEARTBEAT_DELAY_MS = 2;
    private static final Executor SECOND_HEARTBEAT = CompletableFuture.delayedExecutor(SECOND_HEARTBEAT_DELAY_MS,
            TimeUnit.MILLISECONDS);

    /** The leader's commit index the last commit-only heartbeat carried. Appender thread only. */
    private long commitSentAlone = RaftLog.INVALID_LOG_INDEX;
    /** The follower's match index when that heartbeat went out. Appender thread only. */
    private long matchWhenSentAlone = RaftLog.INVALID_LOG_INDEX;


    /** Whether this appender has not yet looked at its follower's next index. */
    private boolean firstRound = true;
    /** The next index this appender gave its follower in place of Ratis's placeholder, if it did. */
    private long nextInPlaceOfThePlaceholder = RaftLog.INVALID_LOG_INDEX;

    /**
     * The clock reading of the current round, taken once per round so that the two rules timed
     * in periods agree to the millisecond (the refused-appends watch's second notice is the one
     * that names the commit index).
     */
    private long roundMs = nowMs();
    private final RefusedAppendsWatch refusedAppends = new RefusedAppendsWatch(roundMs);

    /** The follower's next and snapshot index when they last changed. */
    private long noticedNext = RaftLog.INVALID_LOG_INDEX;
    private long noticedSnapshot = RaftLog.INVALID_LOG_INDEX;
    /** The round of the first notice since they last changed, or -1 if none was due. */
    private long firstNoticeMs = -1;
    /** Whether notices to the follower name the leader's commit index + 1 as the log's first index. */
    private boolean namingTheCommitIndex;
    /** Whether the last round built no request. Appender thread only. */
    private boolean builtNothingLastRound;

    SnapshotAwareLogAppender(RaftServer.Division server, LeaderState leaderState, FollowerInfo follower) {
        super(server, leaderState, follower);
    }

    private static long nowMs() {
        return System.nanoTime() / 1_000_000;
    }

    /**
     * Called by this appender's own thread before each round of sending, first thing in
     * {@link #shouldNotifyToInstallSnapshot} (Ratis's notify mode, the only one Strata runs).
     */
    @Override
    public boolean shouldInstallSnapshot(boolean hasSnapshot) {
        roundMs = nowMs();
        FollowerInfo f = getFollower();
        if (firstRound) {
            firstRound = false;
            if (nextIndexIsAPlaceholder(f.getNextIndex(), getRaftLog().getStartIndex())) {
                // What a new leader assumes of every follower: the append after the last entry
                // names that entry, and the follower's answer gives its real next index.
                nextInPlaceOfThePlaceholder = getRaftLog().getNextIndex();
                f.setNextIndex(nextInPlaceOfThePlaceholder);
                return false;
            }
        }
        if (super.shouldInstallSnapshot(hasSnapshot)) {
            return !followerSnapshotCoversThePreviousEntry(f.getNextIndex(), f.hasAttemptedToInstallSnapshot(),
                    f.getSnapshotIndex(), getRaftLog().getStartIndex());
        }
        return hasSnapshot && refusedAppends.noticeDue(roundMs, f.getNextIndex(), f.getMatchIndex(),
                getRaftLog().getNextIndex(), f.getLastRpcResponseTime().elapsedTimeMs(), nextInPlaceOfThePlaceholder);
    }

    /**
     * The first index of the leader's log that an install notice names: where the log starts, or
     * after the commit index once the first notice since the follower's next or snapshot index
     * last moved is {@link RefusedAppendsWatch#REFUSING_FOR_MS} old. Called by this appender's
     * own thread before each round of sending.
     */
    @Override
    public TermIndex shouldNotifyToInstallSnapshot() {
        FollowerInfo f = getFollower();
        if (f.getNextIndex() != noticedNext || f.getSnapshotIndex() != noticedSnapshot) {
            noticedNext = f.getNextIndex();
            noticedSnapshot = f.getSnapshotIndex();
            firstNoticeMs = -1;
            namingTheCommitIndex = false;
        }
        TermIndex logStart = super.shouldNotifyToInstallSnapshot(); // sets roundMs
        if (logStart == null) {
            return null;
        }
        if (firstNoticeMs < 0) {
            firstNoticeMs = roundMs;
        }
        if (noticesChangeNothing(roundMs - firstNoticeMs, f.getLastRpcResponseTime().elapsedTimeMs())) {
            namingTheCommitIndex = true;
        }
        long afterCommit = getRaftLog().getLastCommittedIndex() + 1;
        return namingTheCommitIndex && afterCommit > logStart.getIndex()
                ? TermIndex.valueOf(getServer().getInfo().getCurrentTerm(), afterCommit) : logStart;
    }

    /**
     * Whether install notices to a follower that answers change nothing: the first notice since
     * its next or snapshot index last moved was sent {@link RefusedAppendsWatch#REFUSING_FOR_MS}
     * ago or more, and it answered meanwhile. A follower notified by the refused-appends watch
     * (once per period) is thus told the commit index at its second notice.
     *
     * <p>Ratis 3.3.0's follower remembers the first index named by the notice that started its
     * install, and fails every later notice that names a lower one ("inProgressInstallSnapshot
     * Request: 6219 is not eligible, firstAvailableLogIndex: 5999"), while it refuses every
     * append until a notice finishes the install. A new leader whose log starts below the old
     * leader's, after the node fetched the old leader's checkpoint, never gets past that (as when
     * a node restarted after kill -9 and its notifying leader died right after the fetch).
     * The index a notice names need not be where the log starts: the follower's state machine
     * takes it as "the log cannot serve you before this". Every such index any leader ever named
     * is at most the commit index + 1 (a log starts at most after its checkpoint, which holds
     * committed entries only), and a leader knows every committed entry once it has committed
     * one of its own term; so naming the commit index + 1, from then on until the follower moves,
     * lets the install finish. The cost, a checkpoint fetched by a follower that could have read
     * the log, falls on a follower whose notices were changing nothing anyway. The period starts
     * at the first notice, not at the follower's last move: a follower that sat unmoved while
     * no notice was due (an idle leader's) and then gets one is first told where the log starts.
     *
     * @param noticedForMs how long since the first notice after the follower last moved
     */
    static boolean noticesChangeNothing(long noticedForMs, long sinceAnswerMs) {
        return noticedForMs >= RefusedAppendsWatch.REFUSING_FOR_MS && sinceAnswerMs < noticedForMs;
    }

    /**
     * How long the appender waits before its next round: Ratis's wait, except after a round that
     * built no request while the follower lacks no entries, when it waits until a heartbeat is
     * due. Ratis 3.3.0 counts a follower whose append stream failed (it was stopped, or its
     * connection broke) as one it must send to at once until a new stream opens, and opens one
     * only with a request to send: with nothing to send, its appender spun, about 100,000
     * rounds in 50 ms, a whole core of the leader, until the next heartbeat was due, and again
     * after every failed heartbeat. A new entry, a triggered heartbeat or an answer still wakes
     * it at once. Called on the appender's own thread.
     */
    @Override
    public long getWaitTimeMs() {
        long wait = super.getWaitTimeMs();
        return builtNothingLastRound && !hasAppendEntries() ? Math.max(wait, getHeartbeatWaitTimeMs()) : wait;
    }

    /**
     * Ratis's next request to the follower, or a heartbeat when Ratis has none although the
     * follower does not know the leader's commit index yet.
     *
     * <p>Ratis 3.3.0's appender wakes when the commit index moves, finds no entry to send and
     * sends nothing, so a follower learns the commit index only with the next write or the
     * periodic heartbeat (every 500 ms with the defaults). Linearizable reads wait for that: a
     * follower's, to apply what its ReadIndex round named, and the leader's too, because a
     * ReadIndex round counts only replies from followers that know the commit index it
     * started at. With few writes a tenth of the reads of a 95%-read mix waited about 500 ms.
     * etcd's leader sends a new commit index at once, too.
     *
     * <p>A follower takes a commit index only up to what it has on disk. When the other
     * follower's reply committed an index this one has not yet flushed, the heartbeat finds it
     * short, so the commit index goes out again once the follower's append reply shows more of
     * the log on disk. Otherwise each commit index goes out alone once, so the appender does not
     * repeat it while the answer is on its way. Called on the appender's own thread.
     */
    @Override
    public AppendEntriesRequestProto newAppendEntriesRequest(long callId, boolean heartbeat) throws RaftLogIOException {
        AppendEntriesRequestProto request = super.newAppendEntriesRequest(callId, heartbeat);
        long leaderCommit = getRaftLog().getLastCommittedIndex();
        FollowerInfo follower = getFollower();
        long match = follower.getMatchIndex();
        if (request == null
                && commitIndexNews(leaderCommit, follower.getCommitIndex(), match, commitSentAlone, matchWhenSentAlone)) {
            commitSentAlone = leaderCommit;
            matchWhenSentAlone = match;
            request = super.newAppendEntriesRequest(callId, true);
        }
        builtNothingLastRound = request == null;
        return request;
    }

    /**
     * Whether a heartbeat would tell the follower a commit index it does not know and could
     * take: one no commit-only heartbeat has carried yet, or one the last such heartbeat found
     * short of the follower's disk, which has since acknowledged more of the log.
     *
     * @param followerMatch the last index the follower has acknowledged as on its disk
     */
    static boolean commitIndexNews(long leaderCommit, long followerCommit, long followerMatch,
                                   long sentAlone, long matchWhenSentAlone) {
        if (leaderCommit <= followerCommit) {
            return false;
        }
        if (leaderCommit > sentAlone) {
            return true;
        }
        return followerMatch > matchWhenSentAlone && Math.min(leaderCommit, followerMatch) > followerCommit;
    }

    /**
     * Ratis's heartbeat for a linearizable read's ReadIndex round, and a second one shortly
     * after unless the appender has sent another request meanwhile.
     *
     * <p>Ratis 3.3.0 registers a round by triggering a heartbeat on every appender and then
     * reading the appender's next call id: only a reply to a request with that id or a later
     * one counts. When the appender's thread sends the heartbeat before the id is read, as
     * happens now and then on busy cores, the heartbeat's reply does not count, and nothing
     * does until the appender's next request; the reads that arrive meanwhile at the same commit
     * index join that round without a heartbeat of their own. A second heartbeat a few
     * milliseconds later, with a later call id, ends such a round.
     */
    @Override
    public void triggerHeartbeat() {
        long nextCallId = getCallId();
        super.triggerHeartbeat();
        SECOND_HEARTBEAT.execute(() -> {
            if (isRunning() && heartbeatMayNotCount(nextCallId, getCallId())) {
                super.triggerHeartbeat();
            }
        });
    }

    /**
     * Whether a heartbeat triggered when the appender's next call id was {@code nextCallIdThen}
     * may be the only request sent since: the next call id has moved by at most one.
     */
    static boolean heartbeatMayNotCount(long nextCallIdThen, long nextCallIdNow) {
        return nextCallIdNow <= nextCallIdThen + 1;
    }

    /**
     * Ratis's next index for a follower that refused an append, except for a follower that lost
     * its log: that one starts over from index 0, as a new follower does, with the match index
     * it had acknowledged forgotten. Called on the reply's gRPC thread, as Ratis's own update
     * of the follower's indices on an install reply is.
     */
    @Override
    protected long getNextIndexForInconsistency(long requestFirstIndex, long replyNextIndex) {
        FollowerInfo f = getFollower();
        long match = f.getMatchIndex();
        if (followerLostAcknowledgedEntries(replyNextIndex, match)) {
            LOG.warn("{}: follower {} answers that its log is empty although it acknowledged entries through index {}; "
                    + "its data directory was lost or replaced: sending it everything again, from a checkpoint if the "
                    + "log no longer starts at 0", getServer().getMemberId(), f.getId(), match);
            f.setSnapshotIndex(replyNextIndex - 1); // sets the match index to -1 and the next index to 0
            return replyNextIndex;
        }
        return super.getNextIndexForInconsistency(requestFirstIndex, replyNextIndex);
    }

    /**
     * Whether a follower that refused an append naming next index {@code replyNextIndex} has lost
     * entries it acknowledged to this leader: its log is empty (next index 0) although it
     * acknowledged entries through {@code matchIndex} (above 0, a leader's starting value). A
     * follower never drops entries it acknowledged to the current leader (it truncates only
     * entries that conflict with that leader's log), so this is a wiped or replaced data
     * directory. Ratis 3.3.0 puts the next index back right after the old match index whenever
     * the refused request did not start there, as no heartbeat does: the leader then takes the
     * empty follower for a current one, never notifies it to install a checkpoint, and it stays
     * empty for the rest of the term. A follower whose log lost only its tail is not recognised
     * here: its answer cannot be told from one to a request that was overtaken by the follower's
     * own checkpoint.
     */
    static boolean followerLostAcknowledgedEntries(long replyNextIndex, long matchIndex) {
        return replyNextIndex == RaftLog.LEAST_VALID_LOG_INDEX && matchIndex > RaftLog.LEAST_VALID_LOG_INDEX;
    }

    /**
     * Whether a new appender's next index for its follower is Ratis's placeholder rather than
     * anything the follower said: 0, from a leader whose log no longer starts at 0.
     *
     * <p>Ratis starts an appender at next index 0 when a member is added and when it restarts
     * one whose thread failed (it does so, for one, when a reply moves the next index while the
     * appender builds a request: "Previous = ... but firstIndex = ..."). Below the leader's log
     * start, 0 makes the leader send install notices; a follower that is in fact current
     * answers that it needs no snapshot (its state machine holds everything before the leader's
     * log), and Ratis 3.3.0 then notifies it again without ever moving the next index, so the
     * follower gets notices only, for good (thousands a minute).
     * Starting instead where a new leader starts, after its last entry, lets the follower's
     * first answer name its real next index. Ratis still sends such an appender's follower one
     * notice on its second round (it counts the follower as not yet caught up): a current
     * follower answers that it needs no snapshot, and one that does need a checkpoint gets it.
     */
    static boolean nextIndexIsAPlaceholder(long followerNext, long leaderLogStart) {
        return followerNext == RaftLog.LEAST_VALID_LOG_INDEX && leaderLogStart > RaftLog.LEAST_VALID_LOG_INDEX;
    }

    /**
     * Whether a follower that needs entries from {@code followerNext} on can be sent them without
     * the entry before them: the leader's log starts right there (so it has every entry the
     * follower needs) and the follower reported a snapshot ending just before it.
     *
     * @param snapshotReported whether the leader heard from the follower about a snapshot (an
     *                         install reply); the index itself starts at 0, so 0 is never taken
     *                         for a snapshot
     */
    static boolean followerSnapshotCoversThePreviousEntry(long followerNext, boolean snapshotReported,
                                                          long followerSnapshotIndex, long leaderLogStart) {
        return snapshotReported
                && followerSnapshotIndex > RaftLog.LEAST_VALID_LOG_INDEX
                && leaderLogStart != RaftLog.INVALID_LOG_INDEX
                && followerNext == leaderLogStart
                && followerNext == followerSnapshotIndex + 1;
    }
}
