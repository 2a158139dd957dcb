package dev.strata.client;

/**
 * A write (put, delete, txn, batch, membership change) failed after it may have reached the
 * cluster: it may or may not have been applied. The client does not retry such a write itself,
 * since that could apply it twice (a txn's effects, a key's version). Read the key to find out,
 * or retry when applying the write twice is harmless. {@link #code()} is the failure's code
 * (usually DEADLINE_EXCEEDED or UNAVAILABLE).
 */
public final class OutcomeUnknownException extends StrataException {
    public OutcomeUnknownException(Code code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
