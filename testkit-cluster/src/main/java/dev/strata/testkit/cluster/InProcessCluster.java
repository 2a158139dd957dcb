package dev.strata.testkit.cluster;

import dev.strata.proto.v1.CheckpointRequest;
import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.MemberAddRequest;
import dev.strata.proto.v1.MemberPromoteRequest;
import dev.strata.proto.v1.MemberRemoveRequest;
import dev.strata.proto.v1.StatusRequest;
import dev.strata.proto.v1.StatusResponse;
import dev.strata.server.StrataServer;
import dev.strata.server.config.ConfigKey;
import dev.strata.server.config.ConfigKeys;
import dev.strata.server.config.ServerConfig;
import dev.strata.testkit.Await;
import dev.strata.testkit.Ports;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/**
 * Real Strata servers in this JVM, on loopback ports chosen free at start: each node has its
 * own engine, Raft server, gRPC server and HTTP port, exactly as {@code strata-server} runs
 * them. Callers talk to nodes through gRPC only. The cluster tests use it, and so does
 * {@code strata-bench checkpoint}, with {@link #serverSizes()}.
 */
public final class InProcessCluster implements AutoCloseable {
    /** Deadline of one call to a node. */
    public static final Duration DEADLINE = Duration.ofSeconds(20);
    /** How long a node may take to start, elect or catch up. */
    public static final Duration STARTUP = Duration.ofSeconds(60);

    /** Small engine buffers and limits so several nodes fit a test JVM; everything else is the default. */
    private static final Map<String, String> TEST_DEFAULTS = Map.of(
            "strata.engine.write-buffer-size", "4MiB",
            "strata.engine.block-cache-size", "8MiB",
            "strata.server.max-value-size", "1MiB",
            "strata.server.max-request-size", "2MiB",
            "strata.server.http-port", "0");

    /** Where a node listens. */
    public record Node(long id, int clientPort, int raftPort) {
        String peer() {
            return id + "=127.0.0.1:" + raftPort + ":" + clientPort;
        }

        public String clientAddress() {
            return "127.0.0.1:" + clientPort;
        }

        public String raftAddress() {
            return "127.0.0.1:" + raftPort;
        }
    }

    private final Path dir;
    private final Map<String, String> overrides;
    private final LongFunction<Map<String, String>> perNode;
    private final ChannelCredentials credentials;
    private final Map<Long, Node> initial = new TreeMap<>();
    private final Map<Long, Node> nodes = new ConcurrentHashMap<>();
    private final Map<Long, StrataServer> running = new ConcurrentHashMap<>();
    private final Map<Long, Boolean> joining = new ConcurrentHashMap<>();
    private final Map<Long, ManagedChannel> channels = new ConcurrentHashMap<>();

    private InProcessCluster(Path dir, Map<String, String> overrides, LongFunction<Map<String, String>> perNode,
                        ChannelCredentials credentials) {
        this.dir = dir;
        this.overrides = overrides;
        this.perNode = perNode;
        this.credentials = credentials;
    }

    /** Starts {@code size} nodes (ids 1..size) and waits for a leader. */
    public static InProcessCluster start(Path dir, int size, Map<String, String> overrides) {
        return start(dir, size, overrides, id -> Map.of(), InsecureChannelCredentials.create());
    }

    /** The server's own value and request limits (16 MiB values), in place of the tests' smaller ones. */
    public static Map<String, String> defaultValueLimits() {
        return Map.of(
                ConfigKeys.MAX_VALUE_SIZE.name(), ConfigKeys.MAX_VALUE_SIZE.defaultValue(),
                ConfigKeys.MAX_REQUEST_SIZE.name(), ConfigKeys.MAX_REQUEST_SIZE.defaultValue());
    }

    /** The server's own sizes (buffers, caches, limits) in place of every one the tests shrink, for benchmarks. */
    public static Map<String, String> serverSizes() {
        Map<String, String> sizes = new HashMap<>(defaultValueLimits());
        for (ConfigKey key : List.of(ConfigKeys.WRITE_BUFFER_SIZE, ConfigKeys.BLOCK_CACHE_SIZE)) {
            sizes.put(key.name(), key.defaultValue());
        }
        return sizes;
    }

    /**
     * Starts {@code size} nodes as {@link #start(Path, int, Map)} does, node {@code id} also
     * with {@code perNode.apply(id)} (its own certificates, say; joining nodes get theirs too);
     * the tests' channels to the nodes use {@code credentials}.
     */
    public static InProcessCluster start(Path dir, int size, Map<String, String> overrides, LongFunction<Map<String, String>> perNode,
                             ChannelCredentials credentials) {
        InProcessCluster c = new InProcessCluster(dir, overrides, perNode, credentials);
        for (long id = 1; id <= size; id++) {
            Node n = new Node(id, Ports.free(), Ports.free());
            c.initial.put(id, n);
            c.nodes.put(id, n);
        }
        try {
            for (long id : c.initial.keySet()) {
                c.startNode(id);
            }
            c.awaitLeader();
        } catch (RuntimeException | Error e) {
            c.close();
            throw e;
        }
        return c;
    }

    public String peers() {
        return initial.values().stream().map(Node::peer).collect(Collectors.joining(","));
    }

    public Node node(long id) {
        return nodes.get(id);
    }

    public Path dataDir(long id) {
        return dir.resolve("node" + id);
    }

    /** The configuration node {@code id} runs with (also what a process launch of it gets as flags). */
    public Map<String, String> config(long id) {
        Node n = nodes.get(id);
        Map<String, String> c = new HashMap<>(TEST_DEFAULTS);
        c.put("strata.node.id", Long.toString(id));
        c.put("strata.cluster.peers", peers());
        c.put("strata.data.dir", dataDir(id).toString());
        c.put("strata.server.client-port", Integer.toString(n.clientPort()));
        c.put("strata.server.raft-port", Integer.toString(n.raftPort()));
        if (joining.getOrDefault(id, false)) {
            c.put("strata.cluster.join", "true");
        }
        c.putAll(overrides);
        c.putAll(perNode.apply(id));
        return c;
    }

    /** Starts (or restarts, with its data) node {@code id} in this JVM. */
    public void startNode(long id) {
        try {
            running.put(id, StrataServer.start(ServerConfig.resolve(config(id))));
        } catch (IOException e) {
            throw new UncheckedIOException("node " + id + " did not start", e);
        }
    }

    /** Starts a new node that waits to be added with MemberAdd. */
    public Node startJoiningNode(long id) {
        Node n = new Node(id, Ports.free(), Ports.free());
        nodes.put(id, n);
        joining.put(id, true);
        startNode(id);
        return n;
    }

    /**
     * Starts node {@code id}, whose data directory was lost, in join mode on its old ports: it
     * waits until the cluster has removed it, then until it is added again (member-replace).
     */
    public void startReplacedNode(long id) {
        joining.put(id, true);
        startNode(id);
    }

    /** The server of running node {@code id}. */
    public StrataServer server(long id) {
        StrataServer s = running.get(id);
        if (s == null) {
            throw new IllegalStateException("node " + id + " is not running");
        }
        return s;
    }

    /** Graceful stop, as SIGTERM does. */
    public void stopNode(long id) {
        StrataServer s = running.remove(id);
        if (s != null) {
            s.close();
        }
        dropChannel(id);
    }

    /** Abrupt stop: calls in flight are cancelled, leadership is not handed over. */
    public void stopNodeAbruptly(long id) {
        StrataServer s = running.remove(id);
        if (s != null) {
            s.stopNow();
        }
        dropChannel(id);
    }

    /** Marks a node as run elsewhere (a process), so this cluster neither starts nor stops it. */
    public void forgetNode(long id) {
        running.remove(id);
        dropChannel(id);
    }

    public List<Long> runningIds() {
        return running.keySet().stream().sorted().toList();
    }

    public int httpPort(long id) {
        return running.get(id).httpPort();
    }

    private void dropChannel(long id) {
        ManagedChannel ch = channels.remove(id);
        if (ch != null) {
            ch.shutdownNow();
        }
    }

    public ManagedChannel channel(long id) {
        return channels.computeIfAbsent(id, i -> Grpc.newChannelBuilderForAddress("127.0.0.1", nodes.get(i).clientPort(),
                        credentials)
                .maxInboundMessageSize(Integer.MAX_VALUE)
                .build());
    }

    public KVGrpc.KVBlockingStub kv(long id) {
        return KVGrpc.newBlockingStub(channel(id)).withDeadlineAfter(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    public ClusterGrpc.ClusterBlockingStub cluster(long id) {
        return ClusterGrpc.newBlockingStub(channel(id)).withDeadlineAfter(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    public StatusResponse status(long id) {
        return cluster(id).status(StatusRequest.getDefaultInstance());
    }

    /** Waits until every running node names the same running leader, and returns it. */
    public long awaitLeader() {
        return awaitLeader(STARTUP);
    }

    /** As {@link #awaitLeader()}, waiting at most {@code timeout}. */
    public long awaitLeader(Duration timeout) {
        long[] leader = {0};
        Await.until(() -> {
            Optional<Long> agreed = Optional.empty();
            for (long id : runningIds()) {
                if (joining.getOrDefault(id, false)) {
                    continue;
                }
                long l = status(id).getLeaderId();
                if (l == 0 || (agreed.isPresent() && agreed.get() != l)) {
                    return false;
                }
                agreed = Optional.of(l);
            }
            leader[0] = agreed.orElse(0L);
            return leader[0] != 0 && running.containsKey(leader[0]) && status(leader[0]).getRole() == StatusResponse.Role.LEADER;
        }, timeout, "the running nodes to agree on a running leader");
        return leader[0];
    }

    /** Waits until node {@code id} has applied everything the leader had committed when this was called. */
    public void awaitCaughtUp(long id) {
        long target = status(awaitLeader()).getCommitIndex();
        Await.until(() -> status(id).getAppliedIndex() >= target, STARTUP, "node " + id + " to apply index " + target);
    }

    /**
     * Waits until node {@code id} has applied the commit index of the leader it names, read again
     * on every poll, so that a leader change is followed.
     */
    public void awaitApplied(long id, Duration timeout) {
        Await.until(() -> {
            long leader = status(id).getLeaderId();
            return leader != 0 && running.containsKey(leader)
                    && status(id).getAppliedIndex() >= status(leader).getCommitIndex();
        }, timeout, "node " + id + " to apply the leader's commit index");
    }

    /** The engine directory of running node {@code id}. */
    public Path engineDir(long id) {
        return server(id).config().engineDir();
    }

    /** Asks every running node for a checkpoint now (each flushes its engine and lets Raft purge its log). */
    public void checkpointAll() {
        for (long id : runningIds()) {
            cluster(id).checkpoint(CheckpointRequest.getDefaultInstance());
        }
    }

    /**
     * Brings back stopped node {@code id} whose data directory was lost, as member-replace does:
     * removes it, starts it empty to join on its old ports and adds it as a learner, which then
     * catches up; {@link #promote} makes it a voter again. {@code timeout} bounds the wait for a leader.
     */
    public void replaceWipedNode(long id, Duration timeout) {
        Node n = nodes.get(id);
        // Asked before the start: a joining node names no leader until it is added.
        long leader = awaitLeader(timeout);
        cluster(leader).memberRemove(MemberRemoveRequest.newBuilder().setId(id).build());
        startReplacedNode(id);
        cluster(leader).memberAdd(MemberAddRequest.newBuilder().setId(id).setRaftAddress(n.raftAddress())
                .setClientAddress(n.clientAddress()).build());
    }

    /** Makes learner {@code id} a voter; {@code timeout} bounds the wait for a leader. */
    public void promote(long id, Duration timeout) {
        cluster(awaitLeader(timeout)).memberPromote(MemberPromoteRequest.newBuilder().setId(id).build());
    }

    /** Everything node {@code id} holds, read locally (SERIALIZABLE): its own state, not the leader's. */
    public Map<String, String> localContents(long id) {
        Map<String, String> seen = new TreeMap<>();
        LocalScan.forEach(() -> kv(id), kv -> seen.put(kv.getKey().toStringUtf8(), kv.getValue().toStringUtf8()));
        return seen;
    }

    @Override
    public void close() {
        for (long id : runningIds()) {
            try {
                stopNodeAbruptly(id);
            } catch (RuntimeException e) {
                System.err.println("stopping node " + id + " failed: " + e);
            }
        }
        channels.values().forEach(ManagedChannel::shutdownNow);
        channels.clear();
    }
}
