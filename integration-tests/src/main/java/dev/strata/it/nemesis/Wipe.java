package dev.strata.it.nemesis;

/**
 * A follower's disk lost: kill -9 it and delete its data directory. Heal does what an operator
 * does for a replaced disk: remove the member, start it empty in join mode (before or after the
 * removal, at random: started before, it waits for the removal), add it as a learner (it catches
 * up from a checkpoint once the log is purged) and promote it. Only a follower, and
 * never combined with another crash: while it is gone, the others must hold a majority.
 */
public final class Wipe implements Nemesis {
    private long victim;

    @Override
    public String name() {
        return "wipe";
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = c.follower();
        c.cluster().kill9(victim);
        c.cluster().wipe(victim);
        return Injection.of("kill -9 node " + victim + " and wipe its data directory");
    }

    @Override
    public String heal(FaultContext c) {
        if (c.random().nextBoolean()) {
            c.cluster().membership().replaceWipedNodeStartedFirst(victim, FaultContext.PATIENCE);
            return "start node " + victim + " empty to join (it waits), remove it, add it again (learner, caught up, promoted)";
        }
        c.cluster().membership().replaceWipedNode(victim, FaultContext.PATIENCE);
        return "remove node " + victim + ", then add it again empty (learner, caught up, promoted)";
    }
}
