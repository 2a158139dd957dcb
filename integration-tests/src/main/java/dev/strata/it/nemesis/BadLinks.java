package dev.strata.it.nemesis;

import dev.strata.testkit.cluster.Network;

import java.util.List;

/**
 * Slow or lossy links between the Raft ports of one random node and every other: slow delays
 * every chunk each way by 50 to 250 ms; lossy resets 2% of chunks' connections (TCP does not
 * lose bytes silently, so a lossy path shows up as broken streams and retransmissions). Heal
 * restores every link.
 */
public final class BadLinks implements Nemesis {
    public enum Kind { SLOW, LOSSY }

    private final Kind kind;

    public BadLinks(Kind kind) {
        this.kind = kind;
    }

    @Override
    public String name() {
        return kind == Kind.SLOW ? "slow-links" : "lossy-links";
    }

    @Override
    public Injection inject(FaultContext c) {
        long node = c.anyRunning();
        List<Long> others = c.cluster().memberIds().stream().filter(id -> id != node).toList();
        Network.Link link = kind == Kind.SLOW
                ? new Network.Link(false, 50 + c.random().nextInt(200), 0)
                : new Network.Link(false, c.random().nextInt(20), 0.02);
        for (long other : others) {
            c.cluster().network().set(node, other, link);
        }
        return Injection.of((kind == Kind.SLOW ? "slow" : "lossy") + " links between node " + node + " and " + others + ": " + link);
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().network().heal();
        return "heal the network";
    }
}
