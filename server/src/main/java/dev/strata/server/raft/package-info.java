/**
 * Replication: one Apache Ratis {@code RaftServer} per node whose state machine
 * ({@link dev.strata.server.raft.KvStateMachine}, a thin adapter of Ratis's callbacks) applies
 * the log to the engine, and {@link dev.strata.server.raft.RaftNode}, the node's door to it for
 * writes, reads and membership.
 *
 * <p>The Raft log is the write-ahead log: every batch the state machine writes carries the
 * (term, index) of its entry as the engine's applied marker. A flush makes the marker durable; a
 * Ratis snapshot reports that marker, so the log is purged only below what the engine's files
 * already hold. The engine's own log is unsynced, a restart cache: a restart replays it into the
 * memtable and Ratis applies only the entries after it (see
 * {@link dev.strata.server.raft.AppliedEngine}).
 */
package dev.strata.server.raft;
