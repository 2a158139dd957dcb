package dev.strata.it.history;

/** How a read was served, which decides the checker that judges it. */
public enum ReadConsistency {
    /** Confirmed with the leader: must be linearizable ({@link LinearizabilityChecker}). */
    LINEARIZABLE,
    /**
     * Served from one node's applied state, possibly stale: must never read the future and never go
     * back in time on that node ({@link SerializableReadChecker}).
     */
    SERIALIZABLE
}
