package dev.strata.server;

import dev.strata.engine.EngineStats;
import dev.strata.proto.internal.v1.MemberDirectory;
import dev.strata.server.config.ServerConfig;
import dev.strata.server.grpc.ApiServer;
import dev.strata.server.metrics.CheckpointMetrics;
import dev.strata.server.metrics.DiskMetrics;
import dev.strata.server.metrics.EngineMetrics;
import dev.strata.server.metrics.HttpEndpoint;
import dev.strata.server.metrics.RaftMetrics;
import dev.strata.server.raft.RaftNode;
import dev.strata.server.tls.ServerTls;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One running Strata node: its Raft node and engine, the gRPC API on the client port, and
 * metrics and probes on the HTTP port. {@link #start} brings it up; {@link #close()} is the
 * graceful shutdown SIGTERM runs (stop accepting, finish what is in flight, hand over
 * leadership, flush, close). Thread-safe.
 */
public final class StrataServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StrataServer.class);
    private static final Duration HANDOVER_TIMEOUT = Duration.ofSeconds(3);
    /** Closing the Raft server and the engine: a memtable flush and file closes, seconds at most. */
    private static final Duration CLOSE_ALLOWANCE = Duration.ofSeconds(20);

    private final ServerConfig config;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ScheduledExecutorService probes = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "strata-probes");
        t.setDaemon(true);
        return t;
    });
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
    private RaftNode node;
    /** Held here because Micrometer holds a gauge's object only weakly. */
    private EngineMetrics engineMetrics;
    private ApiServer api;
    private HttpEndpoint http;
    private volatile boolean stopping;
    private boolean closed;

    private StrataServer(ServerConfig config) {
        this.config = config;
    }

    /**
     * Starts a node: opens its engine, replays the Raft log after the engine's durable marker,
     * joins the group and opens its ports.
     *
     * @throws IOException when a directory, the engine or a port cannot be opened; everything
     *         already started is stopped again
     * @throws IllegalArgumentException when a TLS file cannot be used, naming its key and path
     */
    public static StrataServer start(ServerConfig config) throws IOException {
        StrataServer s = new StrataServer(config);
        try {
            s.startAll();
        } catch (IOException | RuntimeException e) {
            s.stopNow();
            throw e;
        }
        return s;
    }

    private void startAll() throws IOException {
        // First, so a bad certificate stops the start before anything is opened.
        ServerTls tls = ServerTls.load(config.tls());
        LOG.info("node {} TLS: {}", config.nodeId(), tls.describe());
        Files.createDirectories(config.dataDir());
        node = new RaftNode(config, tls);
        node.start();
        RaftMetrics.register(registry, node);
        CheckpointMetrics.register(registry, node.stateMachine().checkpointStats());
        DiskMetrics.register(registry, config.dataDir());
        EngineStats first = node.stateMachine().engineStats();
        engineMetrics = EngineMetrics.register(registry, () -> node.stateMachine().engineStats(), first == null ? 0 : first.levels().size());
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        api = new ApiServer(config, tls, node, registry);
        api.start();
        http = new HttpEndpoint(config.bindAddress(), config.httpPort(), registry, this::unhealthy, this::notReady);
        http.start();
        probes.scheduleWithFixedDelay(this::publishHealth, 0, 1, TimeUnit.SECONDS);
        LOG.info("node {} serving: gRPC on {}:{}, Raft on {}:{}, HTTP on {}:{} (data in {})", config.nodeId(),
                config.bindAddress(), api.port(), config.bindAddress(), config.raftListenPort(), config.bindAddress(), http.port(),
                config.dataDir().toAbsolutePath());
    }

    private Optional<String> unhealthy() {
        if (node.healthy()) {
            return Optional.empty();
        }
        Throwable failure = node.stateMachine().failure();
        return Optional.of(failure != null ? "storage failed: " + failure.getMessage() : "the Raft server is not running");
    }

    private Optional<String> notReady() {
        return stopping ? Optional.of("shutting down") : node.notReady();
    }

    private void publishHealth() {
        try {
            if (!stopping) {
                api.updateHealth(node.healthy(), node.ready());
            }
        } catch (RuntimeException e) {
            // The probe runs again in a second; a failure here must not end the schedule.
            LOG.warn("updating the gRPC health status failed: {}", e.toString());
        }
    }

    /**
     * Completes when this node can no longer serve and its process should end: its Raft server
     * shut down by itself (see {@link RaftNode#stoppedByItself}).
     */
    public CompletableFuture<Void> failed() {
        return node.stoppedByItself();
    }

    /**
     * The replicated member directory as this node has applied it: each member that has run (or
     * was added) and its client address. A record means a start on an empty disk is held back
     * until the member is removed.
     */
    public MemberDirectory memberDirectory() {
        return node.stateMachine().memberDirectory();
    }

    /** The port of the gRPC API (useful when the configuration asked for port 0). */
    public int clientPort() {
        return api.port();
    }

    /** The port of /metrics, /healthz and /readyz. */
    public int httpPort() {
        return http.port();
    }

    public ServerConfig config() {
        return config;
    }

    /**
     * The longest a {@link #close()} of this node should take: the calls in flight, their
     * cancellation, the hand-over, then closing Raft and the engine. Beyond it something is
     * stuck (see {@link ShutdownWatchdog}).
     */
    Duration longestStop() {
        return config.shutdownTimeout().plus(ApiServer.CANCEL_WAIT).plus(HANDOVER_TIMEOUT).plusSeconds(1).plus(CLOSE_ALLOWANCE);
    }

    /**
     * Graceful shutdown: stops accepting calls and lets those in flight finish (up to
     * {@code strata.server.shutdown-timeout}), hands leadership to another voter, then closes
     * the Raft server, which flushes and closes the engine. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopping = true;
        LOG.info("node {} stopping: finishing requests in flight", config.nodeId());
        if (api != null) {
            api.shutdown(config.shutdownTimeout());
        }
        if (node != null) {
            node.handOverLeadership(HANDOVER_TIMEOUT);
        }
        stopNow();
        LOG.info("node {} stopped", config.nodeId());
    }

    /**
     * Stops at once, as a crash of the node's network would: cancels calls in flight and closes
     * the Raft server without handing over leadership (the others elect a new leader). The
     * engine is still flushed and closed; tests use this to kill a leader. Idempotent.
     */
    public synchronized void stopNow() {
        closed = true;
        stopping = true;
        probes.shutdownNow();
        if (api != null) {
            api.close();
        }
        if (node != null) {
            try {
                node.close();
            } catch (IOException e) {
                LOG.error("closing the Raft server of node {} failed: {}", config.nodeId(), e.getMessage(), e);
            }
        }
        if (http != null) {
            http.close();
        }
        gcMetrics.close();
        registry.close();
    }
}
