package dev.strata.server.metrics;

import dev.strata.server.raft.NodeStatus;
import dev.strata.server.raft.RaftNode;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;

import java.util.function.ToDoubleFunction;

/**
 * Raft state as {@code strata_raft_*} meters, read from the node on every scrape: term,
 * commit, applied and durable index, log start, role, leader changes and snapshots taken.
 */
public final class RaftMetrics {
    private RaftMetrics() {}

    public static void register(MeterRegistry registry, RaftNode node) {
        gauge(registry, node, "strata.raft.term", "current Raft term", NodeStatus::term);
        gauge(registry, node, "strata.raft.commit.index", "highest log index known committed", NodeStatus::commitIndex);
        gauge(registry, node, "strata.raft.applied.index", "highest log index applied to the engine", NodeStatus::appliedIndex);
        gauge(registry, node, "strata.raft.durable.index", "highest log index durable in engine files", NodeStatus::durableIndex);
        gauge(registry, node, "strata.raft.log.start.index", "first index still in the Raft log", NodeStatus::logStartIndex);
        gauge(registry, node, "strata.raft.leader", "1 while this node leads", s -> s.role() == RaftPeerRole.LEADER ? 1 : 0);
        gauge(registry, node, "strata.raft.learner", "1 while this node is a non-voting learner", s -> s.role() == RaftPeerRole.LISTENER ? 1 : 0);
        gauge(registry, node, "strata.raft.apply.failed", "1 once the engine failed and this node stopped applying",
                s -> s.failure() == null ? 0 : 1);
        Gauge.builder("strata.raft.ready", node, n -> n.ready() ? 1 : 0).description("1 while /readyz passes").register(registry);
        FunctionCounter.builder("strata.raft.leader.changes", node, n -> n.stateMachine().leaderChanges())
                .description("leader changes this node saw").register(registry);
        FunctionCounter.builder("strata.raft.snapshots", node, n -> n.stateMachine().snapshotsTaken())
                .description("checkpoints (engine flushes that let the log be purged) taken").register(registry);
    }

    private static void gauge(MeterRegistry registry, RaftNode node, String name, String help, ToDoubleFunction<NodeStatus> f) {
        Gauge.builder(name, node, n -> f.applyAsDouble(n.status())).description(help).register(registry);
    }
}
