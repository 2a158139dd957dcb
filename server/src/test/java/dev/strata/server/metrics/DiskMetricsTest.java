package dev.strata.server.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DiskMetricsTest {
    @Test
    void reportsTheDataDirectorysFileSystemUnderPrometheusNames(@TempDir Path dir) throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        DiskMetrics.register(registry, dir);
        double total = registry.get("strata.disk.total.bytes").gauge().value();
        double free = registry.get("strata.disk.free.bytes").gauge().value();
        assertThat(total).isEqualTo((double) Files.getFileStore(dir).getTotalSpace()).isPositive();
        assertThat(free).isBetween(0.0, total);
        assertThat(registry.scrape()).contains("# TYPE strata_disk_free_bytes gauge").contains("\nstrata_disk_free_bytes ")
                .contains("\nstrata_disk_total_bytes ");
    }

    @Test
    void aMissingDirectoryReportsNaNInsteadOfFailingTheScrape(@TempDir Path dir) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        DiskMetrics.register(registry, dir.resolve("gone"));
        assertThat(registry.get("strata.disk.free.bytes").gauge().value()).isNaN();
        assertThat(registry.scrape()).contains("strata_disk_free_bytes NaN");
    }
}
