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

    private final MeterRegistry registry;
    private final Map<String, Meters> meters = new ConcurrentHashMap<>();

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
                Meters m = meters.computeIfAbsent(method + " " + status.getCode(), k -> register(method, status.getCode()));
                m.requests().increment();
                m.duration().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                super.close(status, trailers);
            }
        }, headers);
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
