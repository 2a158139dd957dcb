package dev.strata.it.nemesis;

/** Which node a single-node fault hits. */
public enum Target {
    RANDOM, LEADER;

    long pick(FaultContext c) {
        return this == LEADER ? c.leader() : c.anyRunning();
    }

    String label() {
        return this == LEADER ? "leader" : "node";
    }
}
