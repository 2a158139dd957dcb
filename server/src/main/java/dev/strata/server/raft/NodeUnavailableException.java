package dev.strata.server.raft;

/**
 * This node cannot serve the request right now (it is pausing for a checkpoint install,
 * closing, or has no engine); another node can. Clients get UNAVAILABLE.
 */
public final class NodeUnavailableException extends RuntimeException {
    public NodeUnavailableException(String message) {
        super(message);
    }
}
