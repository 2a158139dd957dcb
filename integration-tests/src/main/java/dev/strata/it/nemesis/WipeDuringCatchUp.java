package dev.strata.it.nemesis;

/**
 * A follower's disk lost twice: replaced as a new member, and wiped again while it catches up
 * as a learner (fetching a checkpoint or the log). A learner never votes, so it starts again to
 * join as it is, without a removal; it catches up from the start and is promoted. Runs alone,
 * as a wipe does.
 */
public final class WipeDuringCatchUp implements Nemesis {
    private long victim;

    @Override
    public String name() {
        return "wipe-during-catch-up";
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = c.follower();
        c.cluster().kill9(victim);
        c.cluster().wipe(victim);
        c.cluster().membership().addWipedNodeAsLearner(victim, FaultContext.PATIENCE);
        try {
            Thread.sleep(c.random().nextInt(1500));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        c.cluster().kill9(victim);
        c.cluster().wipe(victim);
        return Injection.of("kill -9 node " + victim + " and wipe it, add it again as a learner, kill -9 and wipe it while it catches up");
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().membership().restartWipedLearner(victim, FaultContext.PATIENCE);
        return "start learner " + victim + " again to join, caught up, promoted";
    }
}
