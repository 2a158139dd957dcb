package dev.strata.client;

/**
 * A call failed. {@link #code()} says how, with the gRPC status code's name and meaning
 * (INVALID_ARGUMENT: the request was refused as it is; UNAVAILABLE: no node could serve it in
 * time; FAILED_PRECONDITION, RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED, ...). The message is the
 * server's, prefixed with the operation and the node that answered.
 */
public class StrataException extends RuntimeException {
    /** The gRPC status codes, by name. */
    public enum Code {
        OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED,
        RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE,
        DATA_LOSS, UNAUTHENTICATED
    }

    private final Code code;

    public StrataException(Code code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public Code code() {
        return code;
    }
}
