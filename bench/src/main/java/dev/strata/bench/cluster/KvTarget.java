package dev.strata.bench.cluster;

import com.google.protobuf.ByteString;

import java.time.Duration;
import java.util.List;

/**
 * One system under test as the driver sees it: asynchronous puts and gets over gRPC to any of
 * its endpoints, and each endpoint's view of who leads. Both implementations use the same stack
 * ({@link Channels}: grpc-java, Netty, plaintext, async stubs, one deadline per call), so the
 * systems differ in their servers, not in how they are driven.
 *
 * <p>Thread-safe: operations may be issued from any thread, completions run on gRPC's threads.
 */
interface KvTarget extends AutoCloseable {
    /** What a completed operation reports: a failure name ({@link Failures}), or null for success. */
    @FunctionalInterface
    interface Completion {
        void completed(String failure);
    }

    /** The system's name in reports: {@code strata} or {@code etcd}. */
    String system();

    /** The endpoints, host:port, in the order operations and {@link #members} index them. */
    List<String> endpoints();

    /** Sets {@code key} to {@code value} through endpoint {@code endpoint}; {@code done} runs exactly once. */
    void put(int endpoint, ByteString key, ByteString value, Completion done);

    /**
     * Reads {@code key} through endpoint {@code endpoint}, linearizable or serializable; an OK
     * answer without the key completes with {@link Failures#MISSING_KEY} (the driver only reads
     * keys it wrote). {@code done} runs exactly once.
     */
    void get(int endpoint, ByteString key, boolean linearizable, Completion done);

    /** Asks every endpoint for its status, waiting at most {@code timeout} for each; one view per endpoint. */
    List<MemberView> members(Duration timeout);

    /**
     * Housekeeping between measured runs that an operator of this system would do, never inside
     * a measured window. etcd compacts its history (it keeps every revision until told to, and
     * its database would reach the 2 GiB quota); Strata has nothing to do.
     */
    default void betweenRuns() {}

    @Override
    void close();
}
