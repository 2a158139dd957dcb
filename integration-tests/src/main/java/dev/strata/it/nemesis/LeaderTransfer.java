package dev.strata.it.nemesis;

import dev.strata.proto.v1.StatusResponse;
import dev.strata.testkit.cluster.Network;

import java.time.Duration;
import java.util.List;

/** Leadership moved to a random follower under load (an operator's rolling restart does this). */
public final class LeaderTransfer implements Nemesis {
    private static final Duration STOPPING = Duration.ofSeconds(5);

    @Override
    public String name() {
        return "leader-transfer";
    }

    /**
     * Moves leadership to a follower that can take it: running, not paused, with a healthy link
     * to the leader, and able to catch up from the leader's log. Composed with a partition or a
     * pause, a transfer to the node that is cut off or frozen would rightly time out; so would
     * one to a follower that needs a checkpoint first (a leader deposed by a partition whose
     * successor purged its log: the install takes 10 s or more, Ratis gives a transfer 10 s, and
     * a scheduler would not pick such a node). That says nothing about Strata, while a refused
     * transfer to a reachable, current node does, so such a refusal still fails the run.
     */
    @Override
    public Injection inject(FaultContext c) {
        long leader = c.leader();
        long logStart = c.cluster().status(leader).map(StatusResponse::getLogStartIndex).orElse(Long.MAX_VALUE);
        List<Long> able = c.cluster().memberIds().stream()
                .filter(id -> id != leader && c.cluster().running(id) && !c.cluster().process(id).paused()
                        && c.cluster().network().link(leader, id).equals(Network.Link.HEALTHY)
                        && c.cluster().status(id).map(s -> s.getAppliedIndex() + 1 >= logStart).orElse(false))
                .toList();
        if (able.isEmpty()) {
            return Injection.none("no follower can take leadership now (all cut off, paused, down or needing a checkpoint): no transfer");
        }
        long target = able.get(c.random().nextInt(able.size()));
        try {
            c.cluster().transferLeader(target);
        } catch (RuntimeException e) {
            // A node whose disk is full stops itself at its next log write (composed with
            // disk-full, the leader or the target may be that node), and a call to a stopped
            // node fails: the transfer had no one to make it, which says nothing about Strata.
            for (long id : List.of(leader, target)) {
                if (c.cluster().process(id).exitsWithin(STOPPING)) {
                    return Injection.none("node " + id + " stopped during the transfer to node " + target + " (" + e.getMessage()
                            + "): no transfer");
                }
            }
            // An election can overtake a transfer (the target's first heartbeats late on a loaded
            // machine, another follower's timeout first): leadership moved, to another node than
            // the one asked for, and the call says so. Only a leader that stayed in place refused.
            long now = c.leader();
            if (now != leader) {
                return Injection.of("transfer leadership to node " + target + ", overtaken by an election: node " + now
                        + " leads (" + e.getMessage() + ")");
            }
            throw e;
        }
        return Injection.of("transfer leadership to node " + target);
    }

    @Override
    public String heal(FaultContext c) {
        return "nothing to heal";
    }
}
