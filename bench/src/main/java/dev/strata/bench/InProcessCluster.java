package dev.strata.bench;

import dev.strata.proto.v1.CheckpointRequest;
import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.MemberAddRequest;
import dev.strata.proto.v1.MemberPromoteRequest;
import dev.strata.proto.v1.MemberRemoveRequest;
import dev.strata.proto.v1.StatusRequest;
import dev.strata.proto.v1.StatusResponse;
import dev.strata.server.StrataServer;
import dev.strata.server.config.ServerConfig;
import dev.strata.testkit.Ports;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Three (or more) Strata nodes in this JVM on loopback ports chosen free, each started through
 * {@link StrataServer#start} exactly as {@code strata-server} runs one, with its data in
 * {@code <dir>/node<id>}. The benchmark reaches them through gRPC only. Not thread-safe: one
 * thread drives it (the stubs it hands out may be used from any thread).
 */
final class InProcessCluster implements AutoCloseable {
    /** Deadline of one administrative call (Status, Checkpoint). */
    private static final Duration CALL = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(50);

    /** Where a node listens. */
    private record Node(long id, int clientPort, int raftPort) {
        String peer() {
            return id + "=127.0.0.1:" + raftPort + ":" + clientPort;
        }
    }

    private final Path dir;
    private final Map<String, String> settings;
    private final Map<Long, Node> nodes = new TreeMap<>();
    private final Map<Long, StrataServer> running = new TreeMap<>();
    private final Map<Long, ManagedChannel> channels = new HashMap<>();

    private InProcessCluster(Path dir, Map<String, String> settings) {
        this.dir = dir;
        this.settings = settings;
    }

    /**
     * Starts nodes 1..size with {@code settings} (server configuration keys) on top of the
     * defaults, and waits for a leader.
     *
     * @throws IOException when a node does not start; the nodes already started are stopped
     */
    static InProcessCluster start(Path dir, int size, Map<String, String> settings, Duration timeout) throws IOException {
        InProcessCluster c = new InProcessCluster(dir, settings);
        for (long id = 1; id <= size; id++) {
            c.nodes.put(id, new Node(id, Ports.free(), Ports.free()));
        }
        try {
            for (long id : c.nodes.keySet()) {
                c.startNode(id);
            }
            c.awaitLeader(timeout);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    Path dataDir(long id) {
        return dir.resolve("node" + id);
    }

    /** The engine directory of running node {@code id}. */
    Path engineDir(long id) {
        return running.get(id).config().engineDir();
    }

    /** Starts (or restarts, with whatever its data directory holds) node {@code id}. */
    void startNode(long id) throws IOException {
        startNode(id, false);
    }

    /**
     * Brings back stopped node {@code id} whose data directory was lost, as member-replace does:
     * removes it, starts it empty in join mode and adds it as a learner. It then catches up;
     * {@link #promote} makes it a voter again.
     */
    void replaceWipedNode(long id, Duration timeout) throws IOException {
        Node n = nodes.get(id);
        // Asked before the start: a joining node names no leader until it is added.
        long leader = awaitLeader(timeout);
        cluster(leader).memberRemove(MemberRemoveRequest.newBuilder().setId(id).build());
        startNode(id, true);
        cluster(leader).memberAdd(MemberAddRequest.newBuilder().setId(id)
                .setRaftAddress("127.0.0.1:" + n.raftPort()).setClientAddress("127.0.0.1:" + n.clientPort()).build());
    }

    /** Makes learner {@code id} a voter. */
    void promote(long id, Duration timeout) {
        cluster(awaitLeader(timeout)).memberPromote(MemberPromoteRequest.newBuilder().setId(id).build());
    }

    private void startNode(long id, boolean join) throws IOException {
        Node n = nodes.get(id);
        Map<String, String> c = new HashMap<>(settings);
        c.put("strata.node.id", Long.toString(id));
        c.put("strata.cluster.peers", nodes.values().stream().map(Node::peer).collect(Collectors.joining(",")));
        c.put("strata.data.dir", dataDir(id).toString());
        c.put("strata.server.client-port", Integer.toString(n.clientPort()));
        c.put("strata.server.raft-port", Integer.toString(n.raftPort()));
        // Three nodes cannot share one metrics port; the benchmark reads Status instead.
        c.put("strata.server.http-port", "0");
        if (join) {
            c.put("strata.cluster.join", "true");
        }
        running.put(id, StrataServer.start(ServerConfig.resolve(c)));
    }

    /** Graceful stop, as SIGTERM does: the engine is flushed and closed. */
    void stopNode(long id) {
        StrataServer s = running.remove(id);
        if (s != null) {
            s.close();
        }
        ManagedChannel ch = channels.remove(id);
        if (ch != null) {
            ch.shutdownNow();
        }
    }

    List<Long> runningIds() {
        return List.copyOf(running.keySet());
    }

    private ManagedChannel channel(long id) {
        return channels.computeIfAbsent(id, i -> Grpc.newChannelBuilderForAddress("127.0.0.1", nodes.get(i).clientPort(),
                        InsecureChannelCredentials.create())
                .maxInboundMessageSize(32 << 20)
                .build());
    }

    /** A KV stub of node {@code id} without a deadline; callers set one per call. */
    KVGrpc.KVBlockingStub kv(long id) {
        return KVGrpc.newBlockingStub(channel(id));
    }

    StatusResponse status(long id) {
        return cluster(id).status(StatusRequest.getDefaultInstance());
    }

    private ClusterGrpc.ClusterBlockingStub cluster(long id) {
        return ClusterGrpc.newBlockingStub(channel(id)).withDeadlineAfter(CALL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Asks every running node for a checkpoint now (each flushes its engine and lets Raft purge its log). */
    void checkpointAll() {
        for (long id : runningIds()) {
            cluster(id).checkpoint(CheckpointRequest.getDefaultInstance());
        }
    }

    /** Waits until every running node names the same running node as leader, which says it leads; returns its id. */
    long awaitLeader(Duration timeout) {
        long[] leader = {0};
        await(() -> {
            long agreed = 0;
            for (long id : runningIds()) {
                long l = status(id).getLeaderId();
                if (l == 0 || (agreed != 0 && agreed != l)) {
                    return false;
                }
                agreed = l;
            }
            leader[0] = agreed;
            return running.containsKey(agreed) && status(agreed).getRole() == StatusResponse.Role.LEADER;
        }, timeout, "the running nodes to agree on a leader");
        return leader[0];
    }

    /**
     * Waits until node {@code id} has applied the leader's commit index (read again on every
     * poll, so a leader change is followed).
     */
    void awaitApplied(long id, Duration timeout) {
        await(() -> {
            long leader = status(id).getLeaderId();
            return leader != 0 && running.containsKey(leader)
                    && status(id).getAppliedIndex() >= status(leader).getCommitIndex();
        }, timeout, "node " + id + " to apply the leader's commit index");
    }

    /**
     * Polls {@code condition} every 50 ms until it holds. A call that fails (a node
     * still starting, an election) counts as "not yet".
     *
     * @throws IllegalStateException naming {@code what} when {@code timeout} passes first
     */
    static void await(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (StatusRuntimeException e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeout + " waiting for " + what
                        + (last != null ? " (last error: " + last.getMessage() + ")" : ""));
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
        }
    }

    /** Stops every node at once (no leadership handover) and closes the channels. */
    @Override
    public void close() {
        for (ManagedChannel ch : channels.values()) {
            ch.shutdownNow();
        }
        channels.clear();
        for (StrataServer s : running.values()) {
            try {
                s.stopNow();
            } catch (RuntimeException e) {
                System.err.println("stopping node " + s.config().nodeId() + " failed: " + e);
            }
        }
        running.clear();
    }
}
