package dev.strata.transfer;

import dev.strata.proto.internal.v1.Plan;
import dev.strata.proto.internal.v1.PlannedFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * How far one checkpoint fetch has come: bytes received of the bytes its plan sends, and the
 * rate, in the node's log every few seconds and in {@link CheckpointStats}'s fetch gauges. A full
 * checkpoint of a large store takes minutes; an operator watching a node catch up needs to see it
 * move. Used by the fetching thread only; the gauges are read by the metrics endpoint.
 */
final class FetchProgress {
    private static final Logger LOG = LoggerFactory.getLogger(FetchProgress.class);
    static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final String source;
    private final CheckpointStats stats;
    private final long planned;
    private final int files;
    private final long startNanos;
    private long received;
    private int filesDone;
    private long lastLogNanos;

    FetchProgress(String source, Plan plan, CheckpointStats stats, long nowNanos) {
        this.source = source;
        this.stats = stats;
        this.planned = plannedBytes(plan);
        this.files = (int) plan.getFilesList().stream().filter(PlannedFile::getSend).count();
        this.startNanos = nowNanos;
        this.lastLogNanos = nowNanos;
        stats.fetchPlannedBytes.set(planned);
        stats.fetchReceivedBytes.set(0);
        LOG.info("checkpoint fetch from {}: {} files, {} to receive (plan through index {})", source, files,
                mib(planned), plan.getIndex());
    }

    /** The bytes the plan sends: what the sending files hold past the offsets already staged here. */
    static long plannedBytes(Plan plan) {
        return plan.getFilesList().stream().filter(PlannedFile::getSend)
                .mapToLong(f -> f.getContent().getSize() - f.getStartOffset()).sum();
    }

    /** Counts {@code bytes} received, and {@code fileDone} when they finished a file; logs every few seconds. */
    void received(long bytes, boolean fileDone, long nowNanos) {
        received += bytes;
        if (fileDone) {
            filesDone++;
        }
        stats.fetchReceivedBytes.set(received);
        if (nowNanos - lastLogNanos >= LOG_EVERY_NANOS) {
            lastLogNanos = nowNanos;
            LOG.info("checkpoint fetch from {}: {}", source, describe(nowNanos));
        }
    }

    /** "12.3 of 36.6 MiB (34%), 25.1 MiB/s, 4 of 11 files". */
    String describe(long nowNanos) {
        double seconds = Math.max(1e-9, (nowNanos - startNanos) / 1e9);
        return String.format(Locale.ROOT, "%.1f of %.1f MiB (%d%%), %.1f MiB/s, %d of %d files", received / 1048576.0,
                planned / 1048576.0, planned == 0 ? 100 : received * 100 / planned, received / 1048576.0 / seconds,
                filesDone, files);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
