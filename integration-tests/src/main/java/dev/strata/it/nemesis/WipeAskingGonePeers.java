package dev.strata.it.nemesis;

/**
 * A follower's disk lost, and the node started again to join with a command line that names
 * only members that are gone (written before the membership changed). It cannot ask whether the
 * cluster still lists it as a voter, so it must wait, neither voting nor serving: started, it
 * would vote as that voter on an empty log once the leader reached it. Heal does what the
 * node's log asks of an operator, then what member-replace does: start it with the current
 * members, where it holds back as the voter it was, remove it, and add it again (learner,
 * caught up, promoted). Runs alone, as a wipe does.
 */
public final class WipeAskingGonePeers implements Nemesis {
    private long victim;

    @Override
    public String name() {
        return "wipe-asking-gone-peers";
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = c.follower();
        c.cluster().membership().awaitRecordedInDirectory(victim, FaultContext.PATIENCE);
        c.cluster().kill9(victim);
        c.cluster().wipe(victim);
        c.cluster().membership().startToJoinAskingGonePeersExpectingWait(victim, FaultContext.PATIENCE);
        return Injection.of("kill -9 node " + victim + ", wipe its data directory, start it to join asking only a member that is gone: it waits");
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().kill9(victim);
        c.cluster().membership().startInPlaceExpectingHoldBack(victim, FaultContext.PATIENCE);
        c.cluster().membership().replaceHeldBackNode(victim, FaultContext.PATIENCE);
        return "restart node " + victim + " with the current members (it holds back), remove it, add it again";
    }
}
