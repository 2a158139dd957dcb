package dev.strata.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.strata.proto.v1.BatchResponse;
import dev.strata.proto.v1.DeleteResponse;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.LeaderHint;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.proto.v1.ResponseHeader;
import dev.strata.proto.v1.TxnResponse;
import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Runs one operation: calls a node, and on a failure another node might not have, retries on
 * the next one after a jittered exponential backoff, within the operation's deadline.
 *
 * <p>What is retried: a read (get, range page, status, member list) after any failure that says
 * nothing about the request itself (UNAVAILABLE, DEADLINE_EXCEEDED from the node, CANCELLED,
 * UNKNOWN, INTERNAL);
 * a write only when it cannot have reached a node (the connection was refused, or its TLS
 * handshake failed), because a write retried after it may have been applied could be applied
 * twice. Such a write fails with
 * {@link OutcomeUnknownException}. Requests the server refused as they are (INVALID_ARGUMENT,
 * FAILED_PRECONDITION, RESOURCE_EXHAUSTED, ...) are never retried.
 */
final class Calls {
    /** Reads are safe to repeat; writes only when they never left the client. */
    enum Kind { READ, WRITE }

    /** What to do after a failed attempt. */
    enum Decision { RETRY, FAIL, OUTCOME_UNKNOWN }

    /** Starts one attempt of a unary call on {@code channel}. */
    @FunctionalInterface
    interface Rpc<T> {
        void start(Channel channel, Deadline deadline, StreamObserver<T> response);
    }

    private final Endpoints endpoints;
    private final ScheduledExecutorService timer;
    private final Duration timeout;
    private final int maxAttempts;
    private final long initialBackoffMillis;
    private final long maxBackoffMillis;

    Calls(Endpoints endpoints, ScheduledExecutorService timer, Duration timeout, int maxAttempts, Duration initialBackoff,
          Duration maxBackoff) {
        this.endpoints = endpoints;
        this.timer = timer;
        this.timeout = timeout;
        this.maxAttempts = maxAttempts;
        this.initialBackoffMillis = initialBackoff.toMillis();
        this.maxBackoffMillis = maxBackoff.toMillis();
    }

    <T> CompletableFuture<T> run(String operation, Kind kind, Rpc<T> rpc) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attempt(operation, kind, rpc, Deadline.after(timeout.toMillis(), TimeUnit.MILLISECONDS), 1, result);
        return result;
    }

    private <T> void attempt(String operation, Kind kind, Rpc<T> rpc, Deadline deadline, int attempt,
                             CompletableFuture<T> result) {
        Endpoints.Target target = kind == Kind.WRITE ? endpoints.pickForWrite() : endpoints.pick();
        rpc.start(target.channel, deadline, new StreamObserver<>() {
            private T value;

            @Override
            public void onNext(T v) {
                value = v;
            }

            @Override
            public void onCompleted() {
                ResponseHeader header = header(value);
                if (header != null) {
                    endpoints.observedTerm(header.getRaftTerm());
                }
                result.complete(value);
            }

            @Override
            public void onError(Throwable t) {
                Status status = Status.fromThrowable(t);
                String hint = leaderHint(t);
                Decision decision = decide(kind, status, t);
                if (decision != Decision.FAIL) {
                    // The node could not serve this: the next call goes to the leader it named, or
                    // elsewhere, even when this one is not retried (a write of unknown outcome).
                    if (hint != null) {
                        endpoints.leaderHint(hint);
                    } else {
                        endpoints.failed(target);
                    }
                }
                if (decision == Decision.RETRY) {
                    long backoff = backoffMillis(attempt);
                    if (attempt < maxAttempts && deadline.timeRemaining(TimeUnit.MILLISECONDS) > backoff) {
                        timer.schedule(() -> attempt(operation, kind, rpc, deadline, attempt + 1, result), backoff,
                                TimeUnit.MILLISECONDS);
                        return;
                    }
                }
                result.completeExceptionally(error(operation, target.address, attempt, decision, status, t,
                        endpoints.plaintext()));
            }
        });
    }

    /** The header of a KV response, which names the term the node answered in; null for other responses. */
    private static ResponseHeader header(Object response) {
        return switch (response) {
            case PutResponse r -> r.getHeader();
            case GetResponse r -> r.getHeader();
            case DeleteResponse r -> r.getHeader();
            case RangeResponse r -> r.getHeader();
            case TxnResponse r -> r.getHeader();
            case BatchResponse r -> r.getHeader();
            case null, default -> null;
        };
    }

    /** Full jitter: uniform in [0, min(max, initial * 2^(attempt - 1))]. */
    private long backoffMillis(int attempt) {
        long cap = Math.min(maxBackoffMillis, initialBackoffMillis << Math.min(attempt - 1, 20));
        return ThreadLocalRandom.current().nextLong(cap + 1);
    }

    static Decision decide(Kind kind, Status status, Throwable t) {
        if (neverSent(status, t)) {
            return Decision.RETRY;
        }
        return switch (status.getCode()) {
            // INTERNAL too: a stream the node reset as it died comes as INTERNAL, and a write the
            // server failed on unexpectedly may have been applied before it failed.
            case UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED, UNKNOWN, INTERNAL ->
                    kind == Kind.READ ? Decision.RETRY : Decision.OUTCOME_UNKNOWN;
            default -> Decision.FAIL;
        };
    }

    /** A connection that could not be made (refused, or its TLS handshake failed): the request never reached a node. */
    private static boolean neverSent(Status status, Throwable t) {
        if (status.getCode() != Status.Code.UNAVAILABLE) {
            return false;
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ConnectException || c instanceof UnknownHostException || c instanceof SSLHandshakeException) {
                return true;
            }
        }
        return false;
    }

    /**
     * What gRPC's terse transport errors ("io exception", "ssl exception") leave out: the TLS
     * failure under them, or, for a plaintext client whose connection the node closed or reset
     * unanswered (what a TLS port does to it), that TLS may be the reason. Empty when there is
     * nothing to add.
     */
    static String transportHint(Status status, Throwable t, boolean plaintext) {
        if (status.getCode() != Status.Code.UNAVAILABLE) {
            return "";
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SSLException) {
                Throwable root = c;
                while (root.getCause() != null && root.getCause() != root) {
                    root = root.getCause();
                }
                String detail = root.getMessage() != null ? root.getMessage() : root.toString();
                return " (TLS handshake failed: " + detail + ")";
            }
        }
        if (plaintext && closedUnanswered(status, t)) {
            return " (the node closed the connection unanswered, as a node serving TLS does to a plaintext client: "
                    + "connect over TLS if it does)";
        }
        return "";
    }

    /** The connection was made, then closed or reset by the other side before it said anything. */
    private static boolean closedUnanswered(Status status, Throwable t) {
        if ("Network closed for unknown reason".equals(status.getDescription())) {
            return true;
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof IOException && c.getMessage() != null && c.getMessage().contains("Connection reset")) {
                return true;
            }
        }
        return false;
    }

    /** The leader's client address from a {@link LeaderHint} detail, or null. */
    private static String leaderHint(Throwable t) {
        com.google.rpc.Status s = StatusProto.fromThrowable(t);
        if (s == null) {
            return null;
        }
        for (Any detail : s.getDetailsList()) {
            if (detail.is(LeaderHint.class)) {
                try {
                    String endpoint = detail.unpack(LeaderHint.class).getEndpoint();
                    return endpoint.isEmpty() ? null : endpoint;
                } catch (InvalidProtocolBufferException e) {
                    return null; // a hint we cannot read is no hint
                }
            }
        }
        return null;
    }

    private static StrataException error(String operation, String address, int attempts, Decision decision, Status status,
                                         Throwable cause, boolean plaintext) {
        StrataException.Code code = StrataException.Code.valueOf(status.getCode().name());
        String what = operation + " via " + address + (attempts > 1 ? " (attempt " + attempts + ")" : "") + ": "
                + status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription())
                + transportHint(status, cause, plaintext);
        if (decision == Decision.OUTCOME_UNKNOWN) {
            return new OutcomeUnknownException(code, "the outcome of " + what
                    + " is unknown: the write may or may not have been applied", cause);
        }
        return new StrataException(code, what, cause);
    }
}
