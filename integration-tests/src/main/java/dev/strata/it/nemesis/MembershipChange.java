package dev.strata.it.nemesis;

import java.util.List;

/**
 * Membership changes under load: inject adds a new node (learner, caught up, promoted); heal
 * removes a random follower (perhaps the new one), so the cluster keeps its size while its
 * members change.
 */
public final class MembershipChange implements Nemesis {
    @Override
    public String name() {
        return "membership";
    }

    @Override
    public Injection inject(FaultContext c) {
        long added = c.cluster().membership().addNode(FaultContext.PATIENCE);
        return Injection.of("add node " + added + " as a learner and promote it");
    }

    @Override
    public String heal(FaultContext c) {
        long leader = c.leader();
        List<Long> followers = c.cluster().memberIds().stream().filter(id -> id != leader).toList();
        long removed = followers.get(c.random().nextInt(followers.size()));
        c.cluster().membership().removeNode(removed, FaultContext.PATIENCE);
        return "remove node " + removed;
    }
}
