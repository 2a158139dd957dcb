package dev.strata.it.nemesis;

/** kill -9 of a node (a random one or the leader); heal starts it again on its data. */
public final class Kill implements Nemesis {
    private final Target target;
    private long victim;

    public Kill(Target target) {
        this.target = target;
    }

    @Override
    public String name() {
        return "kill-" + target.label();
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = target.pick(c);
        c.cluster().kill9(victim);
        return Injection.of("kill -9 node " + victim);
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().startNode(victim);
        return "restart node " + victim;
    }
}
