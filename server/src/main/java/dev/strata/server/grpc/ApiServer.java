package dev.strata.server.grpc;

import dev.strata.server.checkpoint.CheckpointTransferService;
import dev.strata.server.config.ServerConfig;
import dev.strata.server.kv.RequestValidator;
import dev.strata.server.raft.RaftNode;
import dev.strata.server.tls.ServerTls;
import dev.strata.proto.v1.KVGrpc;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The node's gRPC server on the client port: KV, Cluster, the internal CheckpointTransfer
 * (nodes fetch checkpoints from each other here), {@code grpc.health.v1.Health} and server
 * reflection (so grpcurl and Kubernetes gRPC probes need no proto files). TLS, and mutual TLS,
 * as {@link ServerTls} configures it.
 *
 * <p>Health: the overall service ("") is SERVING while the node is healthy (a liveness
 * probe); {@code strata.v1.KV} is SERVING while it is ready, i.e. a member with a known leader
 * and caught up (a readiness probe).
 *
 * <p>Inbound messages may be 1 MiB larger than {@code strata.server.max-request-size}, so a
 * request just over a limit gets INVALID_ARGUMENT naming the limit rather than a transport error.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    /** How long calls get to end once cancelled, at a stop. */
    public static final Duration CANCEL_WAIT = Duration.ofSeconds(5);
    private static final String KV_SERVICE = "strata.v1.KV";

    private final Server server;
    private final HealthStatusManager health = new HealthStatusManager();
    private final ExecutorService requestExecutor;
    private final ExecutorService adminExecutor;
    private final ExecutorService checkpointExecutor;

    public ApiServer(ServerConfig config, ServerTls tls, RaftNode node, MeterRegistry registry) {
        int threads = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
        this.requestExecutor = Executors.newFixedThreadPool(threads, named("strata-grpc"));
        this.adminExecutor = Executors.newFixedThreadPool(2, named("strata-admin"));
        // Transfers are long and disk-bound: a few at a time, queued beyond that.
        this.checkpointExecutor = Executors.newFixedThreadPool(2, named("strata-checkpoint-send"));
        Responder responder = new Responder(new Errors(node::leader), config.requestTimeout());
        MetricsInterceptor metrics = new MetricsInterceptor(registry);
        this.server = NettyServerBuilder.forAddress(new InetSocketAddress(config.bindAddress(), config.clientPort()),
                        tls.clientPortServerCredentials())
                .directExecutor()
                .callExecutor(new InlineKvCalls(requestExecutor))
                .maxInboundMessageSize((int) Math.min(Integer.MAX_VALUE, config.maxRequestSize() + (1 << 20)))
                .addService(ServerInterceptors.intercept(
                        new KvService(node, new RequestValidator(config.limits()), responder), metrics))
                .addService(ServerInterceptors.intercept(
                        new ClusterService(node, responder, adminExecutor, config.requestTimeout()), metrics))
                .addService(new CheckpointTransferService(node.stateMachine().checkpointSource(), node.stateMachine().checkpointStats(),
                        checkpointExecutor))
                .addService(health.getHealthService())
                .addService(ProtoReflectionServiceV1.newInstance())
                .build();
        health.setStatus("", ServingStatus.NOT_SERVING);
        health.setStatus(KV_SERVICE, ServingStatus.NOT_SERVING);
    }

    public void start() throws IOException {
        server.start();
    }

    /** The port the server listens on. */
    public int port() {
        return server.getPort();
    }

    /** Publishes liveness ("") and readiness ({@value #KV_SERVICE}) to the health service. */
    public void updateHealth(boolean healthy, boolean ready) {
        health.setStatus("", healthy ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
        health.setStatus(KV_SERVICE, ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
    }

    /**
     * Stops taking calls and waits up to {@code grace} for the ones in flight, then cancels
     * what is left. Health turns NOT_SERVING first so probes and balancers move away.
     */
    public void shutdown(Duration grace) {
        health.enterTerminalState();
        server.shutdown();
        try {
            if (!server.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("requests still in flight after {} ms; cancelling them", grace.toMillis());
                server.shutdownNow();
                server.awaitTermination(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.shutdownNow();
        }
        adminExecutor.shutdown();
        requestExecutor.shutdown();
        checkpointExecutor.shutdownNow();
    }

    /** Stops at once, cancelling calls in flight. */
    @Override
    public void close() {
        server.shutdownNow();
        adminExecutor.shutdownNow();
        requestExecutor.shutdownNow();
        checkpointExecutor.shutdownNow();
        try {
            server.awaitTermination(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Chooses where each call runs. The KV calls that never wait run on the transport's own
     * thread: a put, delete, txn or batch is validated and queued for Raft, a get reads the
     * engine's memory (or waits for a ReadIndex round on a future). Range pages, which may read
     * many blocks, and every other call run on the request pool.
     *
     * <p>The server's own executor is direct, so gRPC's method lookup, which runs there before
     * this choice, costs no thread switch either; with a pool as the server's executor every
     * call paid one switch to it and one back.
     */
    private static final class InlineKvCalls implements ServerCallExecutorSupplier {
        private static final Set<String> INLINE = Set.of(KVGrpc.getPutMethod().getFullMethodName(),
                KVGrpc.getDeleteMethod().getFullMethodName(), KVGrpc.getTxnMethod().getFullMethodName(),
                KVGrpc.getBatchMethod().getFullMethodName(), KVGrpc.getGetMethod().getFullMethodName());

        private final Executor pool;

        InlineKvCalls(Executor pool) {
            this.pool = pool;
        }

        @Override
        public <Q, R> Executor getExecutor(ServerCall<Q, R> call, Metadata metadata) {
            // null keeps the call on the server's (direct) executor.
            return INLINE.contains(call.getMethodDescriptor().getFullMethodName()) ? null : pool;
        }
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
