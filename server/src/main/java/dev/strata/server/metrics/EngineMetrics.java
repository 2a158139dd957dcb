package dev.strata.server.metrics;

import dev.strata.engine.EngineException;
import dev.strata.engine.EngineStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The engine's statistics as {@code strata_engine_*} meters: bytes written per cause, write
 * and space amplification, per-level files, stored and raw bytes and compression ratio, stalls,
 * bloom filter and block cache counts, value-log size and garbage. {@code Engine.stats()} lists the data directory, so one
 * stats snapshot serves every meter of a scrape (it is reused for up to a second).
 */
public final class EngineMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(EngineMetrics.class);
    private static final Duration MAX_AGE = Duration.ofSeconds(1);

    private final Supplier<EngineStats> source;
    private final Clock clock;
    private EngineStats cached;
    private long cachedAt;

    /**
     * @param source the engine's current statistics, or null while it is closed (meters then
     *               report their last values)
     */
    EngineMetrics(Supplier<EngineStats> source, Clock clock) {
        this.source = source;
        this.clock = clock;
    }

    /**
     * Registers the engine meters, with per-level meters for {@code levels} levels. Micrometer
     * holds the returned object weakly: keep it for as long as the meters should report.
     */
    public static EngineMetrics register(MeterRegistry registry, Supplier<EngineStats> source, int levels) {
        EngineMetrics m = new EngineMetrics(source, Clock.systemUTC());
        m.counter(registry, "strata.engine.user.written.bytes", "key and value bytes of accepted writes", EngineStats::userBytesWritten);
        m.counter(registry, "strata.engine.wal.written.bytes", "bytes appended to the engine's own WAL (0 under Raft)", EngineStats::walBytesWritten);
        m.counter(registry, "strata.engine.flush.written.bytes", "table bytes written by memtable flushes", EngineStats::flushBytesWritten);
        m.counter(registry, "strata.engine.compaction.read.bytes", "table bytes read by compactions", EngineStats::compactionBytesRead);
        m.counter(registry, "strata.engine.compaction.written.bytes", "table bytes written by compactions", EngineStats::compactionBytesWritten);
        m.counter(registry, "strata.engine.value.log.written.bytes", "value-log bytes written by flushes and compactions",
                EngineStats::valueLogBytesWritten);
        m.counter(registry, "strata.engine.value.log.relocated.bytes", "value-log bytes garbage collection moved",
                EngineStats::valueLogRelocatedBytes);
        m.counter(registry, "strata.engine.value.log.recompressed.bytes",
                "provisional value-log bytes (LZ4 while behind, adaptive compression) recompressed with zstd",
                EngineStats::valueLogRecompressedBytes);
        m.counter(registry, "strata.engine.flushes", "memtable flushes", EngineStats::flushes);
        m.counter(registry, "strata.engine.compactions", "compactions (trivial moves included)", EngineStats::compactions);
        m.counter(registry, "strata.engine.gc.compactions", "compactions started to collect value-log garbage",
                EngineStats::gcCompactions);
        m.counter(registry, "strata.engine.stall.slowdowns", "writes delayed by a write stall", EngineStats::stallSlowdowns);
        m.counter(registry, "strata.engine.stall.stops", "times writers waited for flush or compaction", EngineStats::stallStops);
        m.counter(registry, "strata.engine.stall.seconds", "time writers spent stalled", s -> s.stallMicros() / 1e6);
        m.counter(registry, "strata.engine.bloom.useful", "table lookups a bloom filter answered without a read", EngineStats::bloomUseful);
        m.counter(registry, "strata.engine.bloom.false.positives", "bloom filter passes that found nothing", EngineStats::bloomFalsePositives);
        m.counter(registry, "strata.engine.block.cache.hits", "data block reads served from the cache", EngineStats::blockCacheHits);
        m.counter(registry, "strata.engine.block.cache.misses", "data block reads that went to disk", EngineStats::blockCacheMisses);

        m.gauge(registry, "strata.engine.write.amplification", "disk bytes written per user byte", EngineStats::writeAmplification);
        m.gauge(registry, "strata.engine.space.amplification", "bytes on disk per live byte", EngineStats::spaceAmplification);
        m.gauge(registry, "strata.engine.live.bytes", "estimated size after a full compaction", EngineStats::liveBytes);
        m.gauge(registry, "strata.engine.total.bytes", "bytes of every file in the engine directory", EngineStats::totalBytes);
        m.gauge(registry, "strata.engine.memtable.bytes", "bytes in the active and frozen memtables", EngineStats::memtableBytes);
        m.gauge(registry, "strata.engine.immutable.memtables", "frozen memtables waiting for flush", EngineStats::immutableMemtables);
        m.gauge(registry, "strata.engine.pending.compaction.bytes", "estimated compaction debt", EngineStats::pendingCompactionBytes);
        m.gauge(registry, "strata.engine.writes.stopped", "1 while writes are stopped by a stall", s -> s.writesStopped() ? 1 : 0);
        m.gauge(registry, "strata.engine.block.cache.bytes", "bytes the block cache holds", EngineStats::blockCacheBytes);
        m.gauge(registry, "strata.engine.value.log.files", "value-log files", s -> s.valueLogs().size());
        m.gauge(registry, "strata.engine.value.log.bytes", "bytes of the value-log files", EngineStats::valueLogBytes);
        m.gauge(registry, "strata.engine.value.log.garbage.bytes", "garbage bytes in the value-log files",
                EngineStats::valueLogGarbageBytes);
        m.gauge(registry, "strata.engine.value.log.provisional.bytes",
                "value-log bytes written with LZ4 while behind, waiting to be recompressed (adaptive compression)",
                EngineStats::valueLogProvisionalBytes);
        for (int level = 0; level < levels; level++) {
            int l = level;
            m.levelGauge(registry, "strata.engine.level.files", "table files in the level", l, s -> s.levels().get(l).files());
            m.levelGauge(registry, "strata.engine.level.stored.bytes", "stored (compressed) bytes in the level", l,
                    s -> s.levels().get(l).storedBytes());
            m.levelGauge(registry, "strata.engine.level.raw.bytes", "raw (uncompressed) bytes in the level", l,
                    s -> s.levels().get(l).rawBytes());
            m.levelGauge(registry, "strata.engine.level.compression.ratio", "raw / stored bytes of the level", l,
                    s -> s.levels().get(l).compressionRatio());
        }
        return m;
    }

    private void counter(MeterRegistry registry, String name, String help, ToDoubleFunction<EngineStats> f) {
        FunctionCounter.builder(name, this, m -> m.value(f)).description(help).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String help, ToDoubleFunction<EngineStats> f) {
        Gauge.builder(name, this, m -> m.value(f)).description(help).register(registry);
    }

    private void levelGauge(MeterRegistry registry, String name, String help, int level, ToDoubleFunction<EngineStats> f) {
        Gauge.builder(name, this, m -> m.value(s -> level < s.levels().size() ? f.applyAsDouble(s) : 0))
                .description(help).tag("level", Integer.toString(level)).register(registry);
    }

    private double value(ToDoubleFunction<EngineStats> f) {
        EngineStats s = stats();
        return s == null ? Double.NaN : f.applyAsDouble(s);
    }

    /** The stats of the last second, refreshed when older; the last known while the engine is closed. */
    synchronized EngineStats stats() {
        long now = clock.millis();
        if (cached == null || now - cachedAt >= MAX_AGE.toMillis()) {
            try {
                EngineStats fresh = source.get();
                if (fresh != null) {
                    cached = fresh;
                    cachedAt = now;
                }
            } catch (EngineException e) {
                // A scrape must not fail for one bad reading (a file gone between listing and stat):
                // the meters keep their last values and the next scrape tries again.
                LOG.warn("reading engine statistics failed, metrics keep their last values: {}", e.getMessage());
            }
        }
        return cached;
    }
}
