package dev.strata.it.nemesis;

/** SIGSTOP of a node (a random one or the leader): a process that hangs with its sockets open. Heal: SIGCONT. */
public final class Pause implements Nemesis {
    private final Target target;
    private long victim;

    public Pause(Target target) {
        this.target = target;
    }

    @Override
    public String name() {
        return "pause-" + target.label();
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = target.pick(c);
        c.cluster().process(victim).pause();
        return Injection.of("SIGSTOP node " + victim);
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().process(victim).resume();
        return "SIGCONT node " + victim;
    }
}
