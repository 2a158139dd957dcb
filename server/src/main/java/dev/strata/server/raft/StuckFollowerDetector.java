package dev.strata.server.raft;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Tells, on the leader, when a voter that answers has stopped catching up: its commit index has
 * not moved for {@code stuckAfter} although the leader's is ahead of it and it answered the
 * leader within {@code responsive}.
 *
 * <p>Why. The fault-injection soaks found followers that answered every append "inconsistent,
 * next index N" and never caught up. The first reading was that the leader's record of the
 * follower's log had run ahead of it, which a new leader (with fresh follower records) would
 * repair, so {@link RaftNode} hands over leadership when this detector names a follower. The
 * cause found later was on the follower (Ratis's composed appends, now off; see
 * {@code RaftSettings}), which a hand-over does not repair. This stays as a safety net until a
 * soak shows whether it is still needed; see {@code docs/fault-injection.md}.
 *
 * <p>What it must not name. A follower that is down (it does not answer), one that is catching
 * up (its commit index moves), and one fetching a checkpoint: while checkpoint bytes are being
 * served ({@code checkpointTraffic}) every follower's clock starts again, since a fetch can take
 * longer than {@code stuckAfter}.
 *
 * <p>Not thread-safe: one watcher thread calls {@link #check}.
 */
final class StuckFollowerDetector {
    /** One follower as the leader sees it. */
    record Follower(long id, long commitIndex, long millisSinceLastResponse) {}

    /** A follower's commit index and when it was first seen at that value. */
    private record Seen(long commitIndex, long sinceNanos) {}

    private final long stuckAfterNanos;
    private final long responsiveMillis;
    private final Map<Long, Seen> seen = new HashMap<>();

    StuckFollowerDetector(Duration stuckAfter, Duration responsive) {
        this.stuckAfterNanos = stuckAfter.toNanos();
        this.responsiveMillis = responsive.toMillis();
    }

    /**
     * Looks at the followers once.
     *
     * @param nowNanos          a monotonic clock reading
     * @param leaderCommit      the leader's commit index
     * @param followers         the voters other than the leader
     * @param checkpointTraffic whether checkpoint bytes were served since the last call
     * @return a follower stuck for at least {@code stuckAfter}; its clock starts again, so it is
     *         named again only after another {@code stuckAfter}
     */
    OptionalLong check(long nowNanos, long leaderCommit, List<Follower> followers, boolean checkpointTraffic) {
        Set<Long> present = new HashSet<>();
        long stuck = 0;
        for (Follower f : followers) {
            present.add(f.id());
            boolean waiting = f.commitIndex() < leaderCommit && f.millisSinceLastResponse() < responsiveMillis;
            Seen before = seen.get(f.id());
            if (!waiting || checkpointTraffic) {
                seen.remove(f.id());
            } else if (before == null || before.commitIndex() != f.commitIndex()) {
                seen.put(f.id(), new Seen(f.commitIndex(), nowNanos));
            } else if (nowNanos - before.sinceNanos() >= stuckAfterNanos && stuck == 0) {
                stuck = f.id();
                seen.put(f.id(), new Seen(f.commitIndex(), nowNanos));
            }
        }
        seen.keySet().retainAll(present);
        return stuck == 0 ? OptionalLong.empty() : OptionalLong.of(stuck);
    }
}
