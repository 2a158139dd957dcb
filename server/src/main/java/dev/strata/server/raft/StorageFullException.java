package dev.strata.server.raft;

/**
 * This node's disk is full: it applies nothing more and accepts no writes until space is
 * freed and it is restarted, when it replays the log; nothing acknowledged is lost. Clients
 * get RESOURCE_EXHAUSTED.
 *
 * <p>Public with a {@code (String)} constructor because Ratis carries a state machine's
 * exception to the client as class name and message and rebuilds it reflectively.
 */
public final class StorageFullException extends RuntimeException {
    public StorageFullException(String message) {
        super(message);
    }
}
