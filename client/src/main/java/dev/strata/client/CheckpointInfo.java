package dev.strata.client;

/**
 * A checkpoint a node took on request: everything up to {@code index} of the Raft log (at
 * {@code term}) is in its engine files, and Raft may purge the log before it.
 *
 * @param memberId the node that took it
 */
public record CheckpointInfo(long memberId, long term, long index) {}
