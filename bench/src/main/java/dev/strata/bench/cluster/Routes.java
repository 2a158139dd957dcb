package dev.strata.bench.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Turns a {@link Placement} and the members' views of the cluster into the {@link Route} of one run. */
final class Routes {
    private Routes() {}

    /**
     * The route for {@code placement}. The leader is the one most endpoints that answered name,
     * and it must be among the endpoints; the follower is the first endpoint that answered and is
     * not the leader.
     *
     * @param views one per endpoint of the target, in its order
     * @throws IllegalStateException when there is no leader or no follower to send to, naming what each endpoint said
     */
    static Route resolve(Placement placement, List<MemberView> views) {
        List<String> addresses = views.stream().map(MemberView::address).toList();
        if (placement == Placement.ALL) {
            return new Route(placement, IntStream.range(0, views.size()).toArray(), addresses);
        }
        long leader = leaderId(views);
        int leaderIndex = -1;
        int followerIndex = -1;
        for (int i = 0; i < views.size(); i++) {
            MemberView v = views.get(i);
            if (!v.answered()) {
                continue;
            }
            if (v.memberId() == leader && leaderIndex < 0) {
                leaderIndex = i;
            } else if (v.memberId() != leader && followerIndex < 0) {
                followerIndex = i;
            }
        }
        int chosen = placement == Placement.LEADER ? leaderIndex : followerIndex;
        if (leader == 0 || chosen < 0) {
            throw new IllegalStateException("no " + placement.label() + " among the endpoints to send to; they said " + views);
        }
        return new Route(placement, new int[] {chosen}, List.of(addresses.get(chosen)));
    }

    /** The leader id most answering endpoints name, or 0 when none names one. */
    static long leaderId(List<MemberView> views) {
        Map<Long, Integer> votes = new HashMap<>();
        for (MemberView v : views) {
            if (v.answered() && v.leaderId() != 0) {
                votes.merge(v.leaderId(), 1, Integer::sum);
            }
        }
        return votes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(0L);
    }
}
