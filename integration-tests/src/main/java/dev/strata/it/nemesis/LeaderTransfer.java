package dev.strata.it.nemesis;

/** Leadership moved to a random follower under load (an operator's rolling restart does this). */
public final class LeaderTransfer implements Nemesis {
    @Override
    public String name() {
        return "leader-transfer";
    }

    @Override
    public String inject(FaultContext c) {
        long target = c.follower();
        c.cluster().transferLeader(target);
        return "transfer leadership to node " + target;
    }

    @Override
    public String heal(FaultContext c) {
        return "nothing to heal";
    }
}
