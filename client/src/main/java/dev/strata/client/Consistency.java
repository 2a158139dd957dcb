package dev.strata.client;

/** Which replicas may answer a read. */
public enum Consistency {
    /** Reflects every write acknowledged before the read started (a Raft ReadIndex round). The default. */
    LINEARIZABLE,
    /** Answered from the node's local state without a Raft round: faster, possibly stale. */
    SERIALIZABLE
}
