package dev.strata.server.metrics;

import dev.strata.engine.Engine;
import dev.strata.engine.EngineOptions;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class HttpEndpointTest {
    private static HttpResponse<String> get(int port, String path) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void servesEngineMetricsAndProbesWithReasons(@TempDir Path dir) throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AtomicReference<Optional<String>> notReady = new AtomicReference<>(Optional.of("no leader is known"));
        try (Engine engine = Engine.open(dir, EngineOptions.defaults());
             HttpEndpoint http = new HttpEndpoint("127.0.0.1", 0, registry, Optional::empty, notReady::get)) {
            engine.put("key".getBytes(), "value".getBytes());
            engine.flush();
            EngineMetrics metrics = EngineMetrics.register(registry, engine::stats, engine.stats().levels().size());
            http.start();
            String body = get(http.port(), "/metrics").body();
            assertThat(body).contains("strata_engine_user_written_bytes_total 8.0")
                    .contains("strata_engine_flushes_total 1.0")
                    .contains("strata_engine_level_files{level=\"0\"} 1.0")
                    .contains("strata_engine_level_compression_ratio{level=\"0\"}")
                    .contains("strata_engine_write_amplification ")
                    .contains("strata_engine_space_amplification ")
                    .contains("strata_engine_block_cache_hits_total ")
                    .contains("strata_engine_value_log_garbage_bytes ")
                    .contains("strata_engine_value_log_provisional_bytes ")
                    .contains("strata_engine_value_log_recompressed_bytes_total ");
            assertThat(metrics.stats()).isNotNull();
            assertThat(get(http.port(), "/healthz").statusCode()).isEqualTo(200);
            HttpResponse<String> ready = get(http.port(), "/readyz");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).isEqualTo("no leader is known\n");
            notReady.set(Optional.empty());
            assertThat(get(http.port(), "/readyz").statusCode()).isEqualTo(200);
            assertThat(get(http.port(), "/nothing").statusCode()).isEqualTo(404);
        }
    }
}
