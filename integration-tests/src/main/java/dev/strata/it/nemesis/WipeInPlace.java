package dev.strata.it.nemesis;

/**
 * A follower's disk lost, and the node started again in place as the voter it was, as a
 * restarted pod or service does: it must hold back, neither voting nor serving (it lost the log
 * and votes Raft counts on). Heal does what member-replace does: removes it, which lets the
 * waiting node start as a new member, adds it as a learner and promotes it once it has caught
 * up. Runs alone, as a wipe does.
 */
public final class WipeInPlace implements Nemesis {
    private long victim;

    @Override
    public String name() {
        return "wipe-in-place";
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = c.follower();
        c.cluster().membership().awaitRecordedInDirectory(victim, FaultContext.PATIENCE);
        c.cluster().kill9(victim);
        c.cluster().wipe(victim);
        c.cluster().membership().startInPlaceExpectingHoldBack(victim, FaultContext.PATIENCE);
        return Injection.of("kill -9 node " + victim + ", wipe its data directory, start it in place: it waits");
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().membership().replaceHeldBackNode(victim, FaultContext.PATIENCE);
        return "remove node " + victim + ", which then starts as a new member; add it again (learner, caught up, promoted)";
    }
}
