package dev.strata.client;

/**
 * A member of the cluster.
 *
 * @param raftAddress   host:port its peers replicate to
 * @param clientAddress host:port of its gRPC API (empty when it did not say)
 * @param learner       a non-voting member catching up (promote it to vote)
 */
public record Member(long id, String raftAddress, String clientAddress, boolean learner) {}
