package dev.strata.it.nemesis;

/** A graceful stop (SIGTERM: flush, hand over leadership) of a random node; heal starts it again. */
public final class Restart implements Nemesis {
    private long victim;

    @Override
    public String name() {
        return "restart";
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = c.anyRunning();
        c.cluster().terminate(victim);
        return Injection.of("SIGTERM node " + victim);
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().startNode(victim);
        return "start node " + victim;
    }
}
