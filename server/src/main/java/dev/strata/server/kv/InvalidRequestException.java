package dev.strata.server.kv;

/**
 * A request that breaks a limit or a rule; the gRPC layer answers it with INVALID_ARGUMENT and
 * this message, which names the field and the limit.
 *
 * <p>Public with a {@code (String)} constructor because Ratis carries a state machine's
 * exception to the client as class name and message and rebuilds it reflectively.
 */
public final class InvalidRequestException extends RuntimeException {
    public InvalidRequestException(String message) {
        super(message);
    }
}
