/**
 * Replication: one Apache Ratis {@code RaftServer} per node whose state machine
 * ({@link dev.strata.server.raft.KvStateMachine}) owns the engine, and
 * {@link dev.strata.server.raft.RaftNode}, the node's door to it for writes, reads and
 * membership.
 *
 * <p>The Raft log is the write-ahead log: the engine runs without its own, and every batch the
 * state machine writes carries the (term, index) of its entry as the engine's applied marker.
 * A flush makes the marker durable; a Ratis snapshot reports that marker, so the log is purged only
 * below what the engine's files already hold, and a restart replays the log after the marker.
 */
package dev.strata.server.raft;
