package dev.strata.it;

import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.strata.it.Kv.put;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alert rules and the Grafana dashboard in {@code k8s/monitoring} name only metrics a
 * running node exports: a renamed meter, or a query written against a name the server never had,
 * fails here rather than staying silent on a dashboard. (k8s/validate checks that the same files
 * parse; this checks what they refer to.)
 */
class MonitoringFilesIT {
    /**
     * A metric name, in a query or in the prose around it: the families the server exports
     * (Prometheus' own, like {@code up}, are not ours).
     */
    private static final Pattern REFERENCED = Pattern.compile("\\b((?:strata|jvm|process|system)_[a-z0-9_]+)");

    @TempDir
    Path dir;
    private InProcessCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** k8s/monitoring of this checkout; Failsafe runs in the module's directory. */
    private static Path monitoring() {
        return Path.of("").toAbsolutePath().getParent().resolve("k8s/monitoring");
    }

    private static Set<String> referenced(Path file) throws Exception {
        Set<String> names = new TreeSet<>();
        Matcher m = REFERENCED.matcher(Files.readString(file));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private String scrape() {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cluster.httpPort(1) + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            return r.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while scraping", e);
        }
    }

    /** The series names of a scrape, and the family name of each histogram (prose names those). */
    private static Set<String> exported(String scrape) {
        Set<String> names = scrape.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
        names.addAll(names.stream().filter(n -> n.endsWith("_bucket")).map(n -> n.substring(0, n.length() - "_bucket".length())).toList());
        return names;
    }

    @Test
    void everyMetricTheAlertsAndTheDashboardNameIsExported() throws Exception {
        cluster = InProcessCluster.start(dir, 1, Map.of());
        put(cluster.kv(1), "monitoring/k", "v");
        Kv.get(cluster.kv(1), "monitoring/k");
        // The GC pause timer appears with the first collection.
        System.gc();
        Await.until(() -> exported(scrape()).contains("jvm_gc_pause_seconds_sum"), InProcessCluster.DEADLINE, "a GC pause to be recorded");

        Set<String> exported = exported(scrape());
        Set<String> rules = referenced(monitoring().resolve("prometheusrule.yaml"));
        Set<String> dashboard = referenced(monitoring().resolve("grafana-dashboard.json"));
        assertThat(rules).contains("strata_raft_leader", "strata_disk_free_bytes", "strata_engine_writes_stopped");
        assertThat(dashboard).contains("strata_grpc_request_duration_seconds_bucket", "strata_engine_write_amplification",
                "strata_checkpoint_sent_bytes_total");
        assertThat(exported).as("metrics named in prometheusrule.yaml").containsAll(rules);
        assertThat(exported).as("metrics named in grafana-dashboard.json").containsAll(dashboard);
    }
}
