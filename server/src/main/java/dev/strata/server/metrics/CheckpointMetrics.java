package dev.strata.server.metrics;

import dev.strata.transfer.CheckpointStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/** Checkpoint traffic as {@code strata_checkpoint_*} counters: plans served, installs, files and bytes. */
public final class CheckpointMetrics {
    private CheckpointMetrics() {}

    public static void register(MeterRegistry registry, CheckpointStats stats) {
        counter(registry, stats, "strata.checkpoint.plans.served", "kind", "deltas", s -> s.deltaPlansServed,
                "checkpoint transfers this node served");
        counter(registry, stats, "strata.checkpoint.plans.served", "kind", "full", s -> s.fullPlansServed,
                "checkpoint transfers this node served");
        counter(registry, stats, "strata.checkpoint.sent.bytes", "form", "raw", s -> s.sentRawBytes,
                "checkpoint file bytes this node sent, before and after chunk compression");
        counter(registry, stats, "strata.checkpoint.sent.bytes", "form", "wire", s -> s.sentWireBytes,
                "checkpoint file bytes this node sent, before and after chunk compression");
        counter(registry, stats, "strata.checkpoint.installs", "kind", "deltas", s -> s.deltaInstalls,
                "checkpoints this node installed from another");
        counter(registry, stats, "strata.checkpoint.installs", "kind", "full", s -> s.fullInstalls,
                "checkpoints this node installed from another");
        counter(registry, stats, "strata.checkpoint.install.failures", null, null, s -> s.failedInstalls,
                "checkpoint fetches or installs that failed (each is retried)");
        counter(registry, stats, "strata.checkpoint.files", "how", "received", s -> s.filesReceived,
                "checkpoint files received, or listed in a plan and already held here");
        counter(registry, stats, "strata.checkpoint.files", "how", "reused", s -> s.filesReused,
                "checkpoint files received, or listed in a plan and already held here");
        counter(registry, stats, "strata.checkpoint.received.bytes", "form", "raw", s -> s.receivedRawBytes,
                "checkpoint file bytes received, before and after chunk compression");
        counter(registry, stats, "strata.checkpoint.received.bytes", "form", "wire", s -> s.receivedWireBytes,
                "checkpoint file bytes received, before and after chunk compression");
        counter(registry, stats, "strata.checkpoint.corrupt.chunks", null, null, s -> s.corruptChunks,
                "received chunks rejected by their CRC and fetched again");
        for (String state : new String[] {"planned", "received"}) {
            Gauge.builder("strata.checkpoint.fetch.bytes", stats,
                            s -> (state.equals("planned") ? s.fetchPlannedBytes : s.fetchReceivedBytes).get())
                    .tag("state", state)
                    .description("the latest checkpoint fetch: bytes its plan sends, and bytes received so far")
                    .baseUnit("bytes")
                    .register(registry);
        }
    }

    private static void counter(MeterRegistry registry, CheckpointStats stats, String name, String tag, String value,
                                Function<CheckpointStats, AtomicLong> field, String help) {
        FunctionCounter.Builder<CheckpointStats> b = FunctionCounter.builder(name, stats, s -> field.apply(s).get())
                .description(help);
        if (tag != null) {
            b.tag(tag, value);
        }
        b.register(registry);
    }
}
