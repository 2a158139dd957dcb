package dev.strata.server.raft;

/**
 * A member of the current Raft configuration.
 *
 * @param id            node id
 * @param raftAddress   host:port of its Raft transport
 * @param clientAddress host:port of its gRPC API, or "" when no node recorded it
 * @param learner       true for a non-voting listener
 */
public record Member(long id, String raftAddress, String clientAddress, boolean learner) {
}
