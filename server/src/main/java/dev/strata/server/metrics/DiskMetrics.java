package dev.strata.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The space of the file system holding the data directory, as {@code strata_disk_free_bytes}
 * (what this process may still write) and {@code strata_disk_total_bytes}, read on every
 * scrape. The engine's own sizes ({@code strata_engine_total_bytes}) cannot tell an operator
 * when the volume will fill: other files, the Raft log and checkpoints staged for followers
 * share it. A directory that cannot be read reports NaN rather than failing the scrape.
 */
public final class DiskMetrics {
    private DiskMetrics() {}

    public static void register(MeterRegistry registry, Path dataDir) {
        Gauge.builder("strata.disk.free.bytes", () -> space(dataDir, false))
                .description("bytes still usable by this node on the file system of its data directory")
                .register(registry);
        Gauge.builder("strata.disk.total.bytes", () -> space(dataDir, true))
                .description("size of the file system of the data directory")
                .register(registry);
    }

    private static double space(Path dir, boolean total) {
        try {
            FileStore store = Files.getFileStore(dir);
            return total ? store.getTotalSpace() : store.getUsableSpace();
        } catch (IOException e) {
            return Double.NaN;
        }
    }
}
