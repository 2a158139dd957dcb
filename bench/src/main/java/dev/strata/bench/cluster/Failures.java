package dev.strata.bench.cluster;

import io.grpc.Status;

/**
 * The names failures are counted under. A failed RPC counts under its gRPC status code's name
 * ({@code DEADLINE_EXCEEDED} is a timeout, reported apart as well); the driver adds two of its
 * own (and one for a lost answer), because an operation that never produced a correct answer must not vanish from the figures.
 */
final class Failures {
    /** An open-loop operation that was due but not sent: the in-flight cap was reached. */
    static final String NOT_SENT = "NOT_SENT";
    /** An operation still unanswered well after its deadline (a lost completion: should never happen). */
    static final String NO_ANSWER = "NO_ANSWER";
    /** A get of a key the preload wrote that answered OK with no value. */
    static final String MISSING_KEY = "MISSING_KEY";
    /** The gRPC code of a timed-out operation (the client's deadline or the server's request timeout). */
    static final String TIMED_OUT = Status.Code.DEADLINE_EXCEEDED.name();

    private Failures() {}

    /** The name {@code t}, an RPC's error, counts under. */
    static String of(Throwable t) {
        return Status.fromThrowable(t).getCode().name();
    }
}
