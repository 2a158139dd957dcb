package dev.strata.server.raft;

/**
 * This node's engine failed to apply a committed entry (an I/O error or corruption); the node
 * stops applying until it is restarted and replays the log. Clients get UNAVAILABLE and retry
 * on another node.
 *
 * <p>Public with a {@code (String)} constructor because Ratis carries a state machine's
 * exception to the client as class name and message and rebuilds it reflectively.
 */
public final class StorageFailedException extends RuntimeException {
    public StorageFailedException(String message) {
        super(message);
    }
}
