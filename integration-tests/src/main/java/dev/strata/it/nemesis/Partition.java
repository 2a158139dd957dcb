package dev.strata.it.nemesis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A network partition between the Raft ports (clients still reach every node): a random
 * minority cut off from the majority, the leader alone, or a bridge (two halves that cannot see
 * each other, and one node that sees both, as Jepsen's bridge). Heal reconnects everything.
 */
public final class Partition implements Nemesis {
    public enum Shape { MAJORITY_MINORITY, LEADER_ISOLATED, BRIDGE }

    private final Shape shape;

    public Partition(Shape shape) {
        this.shape = shape;
    }

    @Override
    public String name() {
        return switch (shape) {
            case MAJORITY_MINORITY -> "partition-minority";
            case LEADER_ISOLATED -> "partition-leader";
            case BRIDGE -> "partition-bridge";
        };
    }

    @Override
    public Injection inject(FaultContext c) {
        List<Long> nodes = new ArrayList<>(c.cluster().memberIds());
        Collections.shuffle(nodes, c.random());
        switch (shape) {
            case MAJORITY_MINORITY -> {
                List<Long> minority = nodes.subList(0, (nodes.size() - 1) / 2);
                List<Long> majority = nodes.subList(minority.size(), nodes.size());
                c.cluster().network().partition(minority, majority);
                return Injection.of("partition " + minority + " | " + majority);
            }
            case LEADER_ISOLATED -> {
                long leader = c.leader();
                List<Long> rest = nodes.stream().filter(id -> id != leader).toList();
                c.cluster().network().partition(List.of(leader), rest);
                return Injection.of("isolate leader " + leader + " from " + rest);
            }
            case BRIDGE -> {
                long bridge = nodes.get(0);
                List<Long> others = nodes.subList(1, nodes.size());
                List<Long> left = others.subList(0, others.size() / 2);
                List<Long> right = others.subList(others.size() / 2, others.size());
                c.cluster().network().partition(left, right);
                return Injection.of("bridge: " + left + " | " + right + ", node " + bridge + " sees both");
            }
        }
        throw new AssertionError(shape);
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().network().heal();
        return "heal the network";
    }
}
