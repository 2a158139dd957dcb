package dev.strata.testkit;

import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;

import java.net.ConnectException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes; tests wait on conditions, never on fixed sleeps. */
public final class Await {
    private static final long POLL_NANOS = Duration.ofMillis(50).toNanos();
    /** The codes of a node that is starting, stopping, electing or out of reach. */
    private static final Set<String> UNREACHABLE_CODES = Set.of(Status.Code.UNAVAILABLE.name(),
            Status.Code.DEADLINE_EXCEEDED.name());

    private Await() {}

    /**
     * Polls {@code condition} every 50 ms until it returns true. A condition that throws because
     * a node cannot answer now (see {@link #unreachable}) has not held yet; any other exception
     * fails the wait at once, as it would outside it.
     *
     * @throws AssertionError after {@code timeout}, with the last unreachable-node exception as its cause
     */
    public static void until(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
                last = null;
            } catch (RuntimeException e) {
                if (!unreachable(e)) {
                    throw e;
                }
                last = e;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        AssertionError failure = new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
        if (last != null) {
            failure.initCause(last);
        }
        throw failure;
    }

    /**
     * Whether {@code e} says only that a node could not answer now: a gRPC status (or the SDK's
     * exception, told by its {@code code()}, since this module does not depend on the SDK) of
     * UNAVAILABLE or DEADLINE_EXCEEDED, or a refused connection, anywhere in its causes.
     */
    static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StatusRuntimeException s && UNREACHABLE_CODES.contains(s.getStatus().getCode().name())
                    || t instanceof StatusException s2 && UNREACHABLE_CODES.contains(s2.getStatus().getCode().name())
                    || t instanceof ConnectException
                    || isUnreachableSdkCode(sdkCode(t))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isUnreachableSdkCode(String code) {
        return code != null && UNREACHABLE_CODES.contains(code);
    }

    /** The name of the code of the SDK's StrataException, or null for any other exception. */
    private static String sdkCode(Throwable t) {
        if (!t.getClass().getName().startsWith("dev.strata.client.")) {
            return null;
        }
        try {
            Object code = t.getClass().getMethod("code").invoke(t);
            return code instanceof Enum<?> c ? c.name() : null;
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
