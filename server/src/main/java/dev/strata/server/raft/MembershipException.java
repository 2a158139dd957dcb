package dev.strata.server.raft;

/** A membership request that does not fit the current configuration; {@link #reason()} says how. */
public final class MembershipException extends RuntimeException {
    /** Why the request was refused; the gRPC layer maps each to a status code. */
    public enum Reason {
        /** The member named does not exist (NOT_FOUND). */
        NO_SUCH_MEMBER,
        /** A member with that id already exists (ALREADY_EXISTS). */
        ALREADY_MEMBER,
        /** The member is not in the role the request needs, or the request would leave no voter (FAILED_PRECONDITION). */
        WRONG_ROLE
    }

    private final Reason reason;

    public MembershipException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
