package dev.strata.cli.bench;

import dev.strata.client.Consistency;

import java.util.List;

/**
 * The cluster a workload runs against, through that system's own client API: Strata through the
 * SDK ({@link StrataTarget}) or etcd through its gRPC KV API ({@link EtcdTarget}). Every call
 * waits for its answer and reports a failure as a {@link dev.strata.client.StrataException} with
 * the gRPC status code, an {@link dev.strata.client.OutcomeUnknownException} when a write may or
 * may not have been applied. Thread-safe: the workers share one.
 */
public interface Target extends AutoCloseable {
    /** "strata" or "etcd", for the report. */
    String system();

    List<String> endpoints();

    /** Returns when a member answers; throws when none does. */
    void checkReachable();

    /** Whether the key was found. */
    boolean get(byte[] key, Consistency consistency);

    void put(byte[] key, byte[] value);

    /** Reads up to {@code limit} keys of {@code [from, end)}. */
    void scan(byte[] from, byte[] end, int limit, Consistency consistency);

    /** Writes every pair in one request: the load's batches, at most {@link #maxBatchKeys()} of them. */
    void putAll(List<byte[]> keys, List<byte[]> values);

    /** The most writes one {@link #putAll} may carry. */
    int maxBatchKeys();

    /**
     * Readies the cluster for a measured phase after writes: etcd compacts its history (it keeps
     * every revision until compacted, Strata keeps none), as an operator's etcd would, so a run
     * does not pay for the load's revisions or fill etcd's quota with them. Nothing for Strata.
     */
    void settle();

    @Override
    void close();
}
