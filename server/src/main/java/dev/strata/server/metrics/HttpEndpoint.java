package dev.strata.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The HTTP port: {@code /metrics} in Prometheus text format, {@code /healthz} (200 while the
 * process can serve) and {@code /readyz} (200 while it should get traffic; 503 with the reason
 * otherwise). The JDK's HTTP server is enough for three read-only endpoints.
 */
public final class HttpEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);

    private final HttpServer server;
    private final ExecutorService executor;

    /**
     * @param unhealthy why the process cannot serve, or empty
     * @param notReady  why it should not get traffic, or empty
     * @throws IOException when the port cannot be bound
     */
    public HttpEndpoint(String bindAddress, int port, PrometheusMeterRegistry registry,
                        Supplier<Optional<String>> unhealthy, Supplier<Optional<String>> notReady) throws IOException {
        this.server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "strata-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", x -> respond(x, 200, registry.scrape(), "text/plain; version=0.0.4; charset=utf-8"));
        server.createContext("/healthz", x -> probe(x, unhealthy.get(), "ok"));
        server.createContext("/readyz", x -> probe(x, notReady.get(), "ready"));
        server.createContext("/", x -> respond(x, 404, "not found: try /metrics, /healthz or /readyz\n", "text/plain; charset=utf-8"));
    }

    public void start() {
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void probe(HttpExchange x, Optional<String> problem, String fine) throws IOException {
        if (problem.isPresent()) {
            respond(x, 503, problem.get() + "\n", "text/plain; charset=utf-8");
        } else {
            respond(x, 200, fine + "\n", "text/plain; charset=utf-8");
        }
    }

    private static void respond(HttpExchange x, int status, String body, String type) throws IOException {
        try (x) {
            if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
                x.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", type);
            boolean head = x.getRequestMethod().equals("HEAD");
            x.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = x.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("HTTP {} failed: {}", x.getRequestURI(), e.toString(), e);
            throw e;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
