package dev.strata.server.raft;

/**
 * A write refused before it was proposed because the writes already waiting on this node hold
 * {@code strata.raft.max-queued-write-bytes}: Raft does not keep up with what clients send. The
 * write was not applied; the client may retry it later. Maps to RESOURCE_EXHAUSTED, as etcd's
 * "too many requests" does.
 */
public final class WritesQueuedFullException extends RuntimeException {
    public WritesQueuedFullException(String message) {
        super(message);
    }
}
