package dev.strata.server.grpc;

import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Completes unary calls from futures: bounds each by the server's request timeout or the
 * client's deadline, whichever comes first (DEADLINE_EXCEEDED when it passes), maps failures
 * through {@link Errors}, and drops the answer quietly when the client already cancelled. The
 * KV calls' futures are bounded where they are made ({@link #respondBounded}); a client whose
 * deadline passes first gets DEADLINE_EXCEEDED from its own side.
 */
final class Responder {
    private final Errors errors;
    private final Duration requestTimeout;

    Responder(Errors errors, Duration requestTimeout) {
        this.errors = errors;
        this.requestTimeout = requestTimeout;
    }

    /** Runs {@code call} (which may also throw at once, e.g. on validation) and answers {@code observer} with its result. */
    <T> void respond(StreamObserver<T> observer, Supplier<CompletableFuture<T>> call) {
        respond(observer, call, true);
    }

    /**
     * As {@link #respond(StreamObserver, Supplier)}, for a call whose future its producer already
     * ends within the request timeout (a write's batch, a ReadIndex round): no timer of its own,
     * which would cost a wake-up of the timer thread per call.
     */
    <T> void respondBounded(StreamObserver<T> observer, Supplier<CompletableFuture<T>> call) {
        respond(observer, call, false);
    }

    private <T> void respond(StreamObserver<T> observer, Supplier<CompletableFuture<T>> call, boolean timed) {
        ServerCallStreamObserver<T> server = (ServerCallStreamObserver<T>) observer;
        long timeoutMs = timeoutMillis();
        CompletableFuture<T> future;
        try {
            future = call.get();
        } catch (RuntimeException e) {
            server.setOnCancelHandler(() -> { });
            fail(server, e);
            return;
        }
        // A cancelled call (the client's deadline passed, or it went away) cancels its future: a
        // write still waiting for its batch is withdrawn; work already under way goes on (a
        // replicated write cannot be taken back) and its answer is dropped below. Without a
        // handler grpc-java would throw from onNext once the client cancelled.
        server.setOnCancelHandler(() -> future.cancel(false));
        (timed && !future.isDone() ? future.orTimeout(timeoutMs, TimeUnit.MILLISECONDS) : future).whenComplete((result, error) -> {
            if (error != null) {
                Throwable cause = Errors.unwrap(error);
                // orTimeout's own TimeoutException has no message: say which limit passed.
                fail(server, cause instanceof TimeoutException && cause.getMessage() == null
                        ? new TimeoutException("the request did not finish within " + timeoutMs + " ms (strata.server.request-timeout is "
                                + requestTimeout.toMillis() + " ms; the client's deadline applies when sooner)")
                        : cause);
                return;
            }
            if (!server.isCancelled()) {
                server.onNext(result);
                server.onCompleted();
            }
        });
    }

    private <T> void fail(ServerCallStreamObserver<T> server, Throwable error) {
        if (!server.isCancelled()) {
            server.onError(errors.toStatus(error));
        }
    }

    private long timeoutMillis() {
        long timeout = requestTimeout.toMillis();
        Deadline deadline = Context.current().getDeadline();
        if (deadline != null) {
            timeout = Math.min(timeout, Math.max(1, deadline.timeRemaining(TimeUnit.MILLISECONDS)));
        }
        return timeout;
    }
}
