package dev.strata.server.grpc;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.TimeUnit;

/**
 * Counts and times every call by method and status code:
 * {@code strata_grpc_requests_total{method,code}} and the histogram
 * {@code strata_grpc_request_duration_seconds{method,code}}.
 */
final class MetricsInterceptor implements ServerInterceptor {
    /** Prometheus' classic latency buckets, from 1 ms to 10 s: enough resolution for SLOs, few series. */
    private static final Duration[] BUCKETS = {
            Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private static final Status.Code[] CODES = Status.Code.values();

    private final MeterRegistry registry;
    /** Method name -> its meters by status code (ordinal), registered on first use; no allocation per call. */
    private final Map<String, AtomicReferenceArray<Meters>> meters = new ConcurrentHashMap<>();

    MetricsInterceptor(MeterRegistry registry) {
        this.registry = registry;
    }

    private record Meters(Counter requests, Timer duration) {}

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        long start = System.nanoTime();
        String method = call.getMethodDescriptor().getFullMethodName();
        return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                Meters m = meters(method, status.getCode());
                m.requests().increment();
                m.duration().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                super.close(status, trailers);
            }
        }, headers);
    }

    private Meters meters(String method, Status.Code code) {
        AtomicReferenceArray<Meters> byCode = meters.computeIfAbsent(method, k -> new AtomicReferenceArray<>(CODES.length));
        Meters m = byCode.get(code.ordinal());
        if (m == null) {
            // Micrometer returns the meters already registered under the same name and tags.
            m = register(method, code);
            byCode.set(code.ordinal(), m);
        }
        return m;
    }

    private Meters register(String method, Status.Code code) {
        return new Meters(
                Counter.builder("strata.grpc.requests").description("gRPC requests served, by method and status code")
                        .tags("method", method, "code", code.name()).register(registry),
                Timer.builder("strata.grpc.request.duration").description("gRPC request latency, by method and status code")
                        .tags("method", method, "code", code.name())
                        .serviceLevelObjectives(BUCKETS)
                        .register(registry));
    }
}
