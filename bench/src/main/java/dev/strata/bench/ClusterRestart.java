package dev.strata.bench;

import dev.strata.client.Consistency;
import dev.strata.client.StrataClient;
import dev.strata.proto.v1.StatusResponse;
import dev.strata.testkit.cluster.ProcessCluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Starts every node of a cluster whose processes were all killed and times how it comes back:
 * each node's client port opening, the first leader, the first linearizable read that succeeds
 * through the SDK (the recovery time), and every node applying the leader's commit index.
 *
 * <p>Serving is found by probes: every {@link #PROBE_EVERY} a fresh SDK client (fresh channels,
 * so no reconnect backoff from earlier failures delays it) reads a key linearizably, and the first
 * probe to succeed marks the moment. A probe waits in the server while no leader can answer, so
 * it completes as soon as the cluster serves; the error is about the time of one read.
 */
final class ClusterRestart {
    private static final Duration PROBE_EVERY = Duration.ofMillis(50);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration POLL_EVERY = Duration.ofMillis(20);
    private static final int CONNECT_TIMEOUT_MILLIS = 100;
    private static final byte[] PROBE_KEY = "probe".getBytes(StandardCharsets.US_ASCII);

    private final ProcessCluster cluster;
    private final Duration timeout;

    ClusterRestart(ProcessCluster cluster, Duration timeout) {
        this.cluster = cluster;
        this.timeout = timeout;
    }

    /** Starts every member (none may be running) and waits until all of them caught up. */
    RecoveryReport.Restart run() throws InterruptedException {
        List<Long> ids = cluster.memberIds();
        long start = System.nanoTime();
        for (long id : ids) {
            cluster.startNode(id);
        }
        Watch watch = new Watch(ids, start);
        Thread watcher = Thread.ofPlatform().name("restart-watch").daemon().start(watch);
        long serving = awaitServing(start);
        Map<Long, ThreadCpu> cpu = cpuOf(ids);
        watcher.join(timeout.toMillis());
        if (watcher.isAlive()) {
            watcher.interrupt();
            throw new IllegalStateException("the nodes' ports or a leader did not show within " + timeout.toSeconds() + " s");
        }
        cluster.awaitCaughtUp(timeout);
        long caughtUp = System.nanoTime();
        long leader = cluster.awaitLeader(timeout);
        long commit = cluster.status(leader).orElseThrow(() -> new IllegalStateException("leader " + leader + " stopped answering"))
                .getCommitIndex();
        List<RecoveryReport.NodeStart> nodes = new ArrayList<>(watch.nodes.values());
        return new RecoveryReport.Restart(seconds(start, serving), nodes.stream().mapToDouble(RecoveryReport.NodeStart::upSeconds)
                .min().orElse(Double.NaN), nodes.stream().mapToDouble(RecoveryReport.NodeStart::upSeconds).max().orElse(Double.NaN),
                seconds(start, watch.leaderAt), seconds(start, caughtUp), commit, nodes, cpu);
    }

    /** Each node's CPU so far, by what its threads do; a node whose process is gone is left out. */
    private Map<Long, ThreadCpu> cpuOf(List<Long> ids) {
        Map<Long, ThreadCpu> cpu = new TreeMap<>();
        for (long id : ids) {
            try {
                cpu.put(id, ThreadCpu.of(cluster.process(id).pid()));
            } catch (IOException gone) {
                System.err.println("node " + id + "'s CPU is unknown: " + gone);
            }
        }
        return cpu;
    }

    /** Probes until one linearizable read succeeds; returns when it completed ({@link System#nanoTime}). */
    private long awaitServing(long start) throws InterruptedException {
        AtomicLong servedAt = new AtomicLong();
        Map<StrataClient, CompletableFuture<?>> probes = new HashMap<>();
        List<String> endpoints = cluster.clientAddresses();
        try {
            for (int n = 0; servedAt.get() == 0; n++) {
                if (System.nanoTime() - start > timeout.toNanos()) {
                    throw new IllegalStateException("no linearizable read succeeded within " + timeout.toSeconds() + " s of the restart");
                }
                for (long id : cluster.memberIds()) {
                    if (!cluster.running(id)) {
                        throw new IllegalStateException("node " + id + " exited during the restart; its log: " + cluster.log(id));
                    }
                }
                List<String> order = new ArrayList<>(endpoints);
                Collections.rotate(order, n);
                StrataClient probe = StrataClient.builder().endpoints(order).timeout(PROBE_TIMEOUT)
                        .retries(4, Duration.ofMillis(10), Duration.ofMillis(100)).coolDown(Duration.ofMillis(100)).build();
                probes.put(probe, probe.async().get(PROBE_KEY, Consistency.LINEARIZABLE).whenComplete((r, t) -> {
                    if (t == null) {
                        servedAt.compareAndSet(0, System.nanoTime());
                    }
                }));
                Thread.sleep(PROBE_EVERY.toMillis());
                probes.entrySet().removeIf(e -> {
                    if (e.getValue().isDone()) {
                        e.getKey().close();
                        return true;
                    }
                    return false;
                });
            }
        } finally {
            // Probes still waiting end within PROBE_TIMEOUT; closing waits for them, so not on this thread.
            List<StrataClient> left = List.copyOf(probes.keySet());
            Thread.ofPlatform().name("probe-close").daemon().start(() -> left.forEach(StrataClient::close));
        }
        return servedAt.get();
    }

    private static double seconds(long from, long to) {
        return (to - from) / 1e9;
    }

    /** Polls the nodes: when each one's client port opens (and what its first Status says), and when a leader shows. */
    private final class Watch implements Runnable {
        private final List<Long> ids;
        private final long start;
        final Map<Long, RecoveryReport.NodeStart> nodes = new TreeMap<>();
        volatile long leaderAt;

        Watch(List<Long> ids, long start) {
            this.ids = ids;
            this.start = start;
        }

        @Override
        public void run() {
            while (!Thread.currentThread().isInterrupted() && (nodes.size() < ids.size() || leaderAt == 0)) {
                for (long id : ids) {
                    if (!nodes.containsKey(id) && accepts(cluster.node(id).clientPort())) {
                        long up = System.nanoTime();
                        // The port opens after the node started (engine open, Raft started): Status answers now.
                        Optional<StatusResponse> s = cluster.status(id);
                        if (s.isPresent()) {
                            nodes.put(id, new RecoveryReport.NodeStart(id, seconds(start, up), s.get().getDurableIndex(),
                                    s.get().getAppliedIndex(), s.get().getLogStartIndex()));
                        }
                    }
                }
                if (leaderAt == 0) {
                    for (long id : nodes.keySet()) {
                        if (cluster.status(id).map(s -> s.getRole() == StatusResponse.Role.LEADER).orElse(false)) {
                            leaderAt = System.nanoTime();
                            break;
                        }
                    }
                }
                LockSupport.parkNanos(POLL_EVERY.toNanos());
            }
        }

        private static boolean accepts(int port) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MILLIS);
                return true;
            } catch (IOException refused) {
                return false;
            }
        }
    }
}
