package dev.strata.testkit.cluster;

import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.MemberListRequest;
import dev.strata.proto.v1.StatusRequest;
import dev.strata.proto.v1.StatusResponse;
import dev.strata.proto.v1.TransferLeaderRequest;
import dev.strata.testkit.FileTrees;
import dev.strata.testkit.Ports;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A Strata cluster of real server processes on loopback, each with its own data directory and
 * ports, and a {@link FaultProxy} in front of every Raft port: the peer list names the proxies,
 * so every Raft byte between nodes passes through the {@link Network}'s rules. Clients talk to
 * the nodes' client ports directly.
 */
public final class ProcessCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessCluster.class);
    /** How long an admin call (status, membership) may take; the harness polls, so short is fine. */
    private static final Duration CALL = Duration.ofSeconds(5);
    private static final Duration MEMBERSHIP_CALL = Duration.ofSeconds(60);

    /** Small buffers and frequent checkpoints so log purging and checkpoint catch-up happen within short runs. */
    private static final Map<String, String> DEFAULTS = Map.of(
            "strata.engine.write-buffer-size", "2MiB",
            "strata.engine.block-cache-size", "8MiB",
            "strata.server.max-value-size", "1MiB",
            "strata.server.max-request-size", "2MiB",
            "strata.server.http-port", "0",
            "strata.raft.snapshot.threshold-entries", "3000",
            "strata.raft.log.segment-size", "1MiB");

    /** Where one node listens; {@code proxyPort} is its Raft address as the other nodes know it. */
    public record Node(long id, int clientPort, int raftPort, int proxyPort, boolean joined) {
        public String clientAddress() {
            return "127.0.0.1:" + clientPort;
        }

        String advertisedRaftAddress() {
            return "127.0.0.1:" + proxyPort;
        }

        String peer() {
            return id + "=127.0.0.1:" + proxyPort + ":" + clientPort;
        }
    }

    private final Path dir;
    private final Map<String, String> overrides;
    private final List<String> jvmOptions;
    private final Network network = new Network();
    private final Map<Long, Node> initial = new ConcurrentSkipListMap<>();
    final Map<Long, Node> members = new ConcurrentSkipListMap<>();
    private final Map<Long, NodeProcess> processes = new ConcurrentHashMap<>();
    private final Map<Long, FaultProxy> proxies = new ConcurrentHashMap<>();
    private final Map<Long, ManagedChannel> channels = new ConcurrentHashMap<>();
    /** Wiped nodes started before their removal, waiting for it: running, but neither voting nor serving. */
    final Set<Long> heldBack = ConcurrentHashMap.newKeySet();
    /** Settings for a node's next start only, over everything else. */
    final Map<Long, Map<String, String>> nextStartSettings = new ConcurrentHashMap<>();
    long nextId;
    private final ClusterMembership membership = new ClusterMembership(this);

    private ProcessCluster(Path dir, Map<String, String> overrides, List<String> jvmOptions) {
        this.dir = dir;
        this.overrides = Map.copyOf(overrides);
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /** Starts {@code size} nodes (ids 1..size) and waits until they agree on a leader. */
    public static ProcessCluster start(Path dir, int size, Map<String, String> overrides) {
        return start(dir, size, overrides, NodeProcess.TEST_JVM_OPTIONS);
    }

    /**
     * Starts {@code size} nodes as {@link #start(Path, int, Map)} does, each JVM with
     * {@code jvmOptions} instead of {@link NodeProcess#TEST_JVM_OPTIONS} (a benchmark runs the
     * nodes as {@code bin/strata-server} would).
     */
    public static ProcessCluster start(Path dir, int size, Map<String, String> overrides, List<String> jvmOptions) {
        ProcessCluster c = new ProcessCluster(dir, overrides, jvmOptions);
        try {
            Files.createDirectories(dir);
            for (long id = 1; id <= size; id++) {
                Node n = new Node(id, Ports.free(), Ports.free(), Ports.free(), false);
                c.initial.put(id, n);
                c.members.put(id, n);
            }
            c.nextId = size + 1;
            for (long id : c.initial.keySet()) {
                c.startNode(id);
            }
            // Generous: on a loaded two-core machine five JVMs can take a minute just to start.
            c.awaitLeader(Duration.ofSeconds(180));
        } catch (IOException e) {
            c.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            c.close();
            throw e;
        }
        return c;
    }

    /**
     * Records which ports each initial member listens on in the cluster's directory
     * ({@link ClusterLayout}), so that a copy of the directory taken while every node is stopped
     * can be started again by {@link #adopt}.
     */
    public void saveLayout() {
        ClusterLayout.write(dir, initial.values());
    }

    /**
     * A cluster over {@code dir} as {@link #saveLayout()} left it, every node stopped: the same ids
     * and ports, nothing started. {@link #startNode} starts each node on the data it holds.
     *
     * @throws IllegalArgumentException when the directory holds no layout or a malformed one
     */
    public static ProcessCluster adopt(Path dir, Map<String, String> overrides, List<String> jvmOptions) {
        ProcessCluster c = new ProcessCluster(dir, overrides, jvmOptions);
        for (Node n : ClusterLayout.read(dir)) {
            c.initial.put(n.id(), n);
            c.members.put(n.id(), n);
            c.nextId = Math.max(c.nextId, n.id() + 1);
        }
        return c;
    }

    public Network network() {
        return network;
    }

    /** The members, as the harness configured them (sorted by id). */
    public List<Long> memberIds() {
        return List.copyOf(members.keySet());
    }

    public Node node(long id) {
        return members.get(id);
    }

    /** Client addresses of every member, for a client that may use any of them. */
    public List<String> clientAddresses() {
        return members.values().stream().map(Node::clientAddress).toList();
    }

    public Path dataDir(long id) {
        return dir.resolve("node" + id);
    }

    public Path log(long id) {
        return dir.resolve("node" + id + ".log");
    }

    public boolean running(long id) {
        NodeProcess p = processes.get(id);
        return p != null && p.alive();
    }

    public NodeProcess process(long id) {
        return processes.get(id);
    }

    private Map<String, String> config(Node n) {
        Map<String, String> c = new HashMap<>(DEFAULTS);
        c.put("strata.node.id", Long.toString(n.id()));
        c.put("strata.cluster.peers", peersFor(n));
        c.put("strata.data.dir", dataDir(n.id()).toString());
        c.put("strata.server.client-port", Integer.toString(n.clientPort()));
        c.put("strata.server.raft-port", Integer.toString(n.proxyPort()));
        c.put("strata.server.raft-listen-port", Integer.toString(n.raftPort()));
        if (n.joined()) {
            c.put("strata.cluster.join", "true");
        }
        c.putAll(overrides);
        c.putAll(nextStartSettings.getOrDefault(n.id(), Map.of()));
        return c;
    }

    /**
     * The peers a node is started with: the initial members, which a new cluster forms from, and
     * the current ones, as an operator names them when starting a node after membership changed.
     * A node on an empty disk asks them whether the cluster still lists it as a voter; with only
     * members that are gone it could not tell, and would wait.
     */
    private String peersFor(Node n) {
        Map<Long, Node> peers = new TreeMap<>(initial);
        peers.putAll(members);
        return peers.values().stream().map(Node::peer).collect(Collectors.joining(","));
    }

    /** Starts node {@code id} (again, with whatever its data directory holds). */
    public void startNode(long id) {
        Node n = members.get(id);
        if (running(id)) {
            throw new IllegalStateException("node " + id + " is already running");
        }
        NodeProcess p = NodeProcess.start(config(n), log(id), jvmOptions);
        processes.put(id, p);
        LOG.info("node {} started as process {}", id, p.pid());
        proxies.computeIfAbsent(id, i -> new FaultProxy(i, n.proxyPort(), n.raftPort(), network, this::nodePids));
    }

    public void kill9(long id) {
        NodeProcess p = processes.get(id);
        if (p != null) {
            LOG.info("kill -9 node {} (process {})", id, p.pid());
            p.kill9();
        }
        dropChannel(id);
    }

    public void terminate(long id) {
        NodeProcess p = processes.get(id);
        if (p != null && p.alive()) {
            p.terminate();
        }
        dropChannel(id);
    }

    /** Deletes a stopped node's data directory: the node comes back as a replaced disk would. */
    public void wipe(long id) {
        if (running(id)) {
            throw new IllegalStateException("wipe node " + id + " only while it is stopped");
        }
        Path data = dataDir(id);
        if (!Files.exists(data)) {
            return;
        }
        LOG.info("wiping node {}'s data directory", id);
        try {
            FileTrees.delete(data);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot wipe " + data, e);
        }
    }

    private long[][] nodePids() {
        List<long[]> pids = new ArrayList<>();
        processes.forEach((id, p) -> {
            if (p.alive()) {
                pids.add(new long[] {id, p.pid()});
            }
        });
        return pids.toArray(long[][]::new);
    }

    // ---- Observing the cluster ------------------------------------------------------------

    private ManagedChannel channel(long id) {
        return channels.computeIfAbsent(id, i -> Grpc.newChannelBuilderForAddress("127.0.0.1", members.get(i).clientPort(),
                InsecureChannelCredentials.create()).maxInboundMessageSize(Integer.MAX_VALUE).build());
    }

    private void dropChannel(long id) {
        ManagedChannel ch = channels.remove(id);
        if (ch != null) {
            ch.shutdownNow();
        }
    }

    ClusterGrpc.ClusterBlockingStub admin(long id) {
        return ClusterGrpc.newBlockingStub(channel(id)).withDeadlineAfter(CALL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** For membership changes, which wait for the new configuration to commit (and a learner to catch up). */
    ClusterGrpc.ClusterBlockingStub membershipCall(long id) {
        return ClusterGrpc.newBlockingStub(channel(id)).withDeadlineAfter(MEMBERSHIP_CALL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Node {@code id}'s status, or empty when it does not answer. */
    public Optional<StatusResponse> status(long id) {
        if (!running(id) || processes.get(id).paused()) {
            return Optional.empty();
        }
        try {
            return Optional.of(admin(id).status(StatusRequest.getDefaultInstance()));
        } catch (RuntimeException unreachable) {
            return Optional.empty();
        }
    }

    /**
     * The leader, when a running node says it is leader. Of two that say so (a leader cut off by
     * a partition has not yet noticed that the others elected a new one), the one in the
     * higher term.
     */
    public Optional<Long> leader() {
        long leader = 0;
        long term = -1;
        for (long id : memberIds()) {
            Optional<StatusResponse> s = status(id);
            if (s.isPresent() && s.get().getRole() == StatusResponse.Role.LEADER && s.get().getHeader().getRaftTerm() > term) {
                leader = id;
                term = s.get().getHeader().getRaftTerm();
            }
        }
        return leader == 0 ? Optional.empty() : Optional.of(leader);
    }

    /**
     * Waits until a node leads and every running, unpaused node of its configuration that the
     * network lets reach it names it as leader, and returns it. Nodes outside the configuration
     * (started to join, or removed) have no leader to agree on, a node cut off from the leader
     * cannot learn of it until the partition heals, and a wiped node held back until its removal
     * does not answer: none is asked.
     */
    public long awaitLeader(Duration timeout) {
        long[] leader = {0};
        await(() -> {
            Optional<Long> candidate = leader();
            if (candidate.isEmpty()) {
                return false;
            }
            for (long id : configuration(candidate.get())) {
                if (!running(id) || processes.get(id).paused() || heldBack.contains(id)
                        || network.link(id, candidate.get()).cut() || network.link(candidate.get(), id).cut()) {
                    continue;
                }
                if (status(id).map(s -> s.getLeaderId() != candidate.get()).orElse(true)) {
                    return false;
                }
            }
            leader[0] = candidate.get();
            return true;
        }, timeout, "the running members to agree on a leader");
        return leader[0];
    }

    /** The ids in the configuration as node {@code id} knows it (voters and learners). */
    private List<Long> configuration(long id) {
        return admin(id).memberList(MemberListRequest.getDefaultInstance()).getMembersList().stream()
                .map(dev.strata.proto.v1.Member::getId).toList();
    }

    /** Waits until every running member of the configuration has applied everything the leader had committed. */
    public void awaitCaughtUp(Duration timeout) {
        long leader = awaitLeader(timeout);
        long target = status(leader).orElseThrow(() -> new IllegalStateException("leader " + leader + " stopped answering"))
                .getCommitIndex();
        for (long id : configuration(leader)) {
            if (running(id) && !processes.get(id).paused() && !heldBack.contains(id)) {
                awaitApplied(id, target, timeout);
            }
        }
    }

    /**
     * Waits until node {@code id} alone has applied what the leader has committed now. Unlike
     * {@link #awaitCaughtUp(Duration)}, a member that a partition cuts off does not hold it up.
     */
    void awaitCaughtUp(long id, Duration timeout) {
        long leader = awaitLeader(timeout);
        long target = status(leader).orElseThrow(() -> new IllegalStateException("leader " + leader + " stopped answering"))
                .getCommitIndex();
        awaitApplied(id, target, timeout);
    }

    private void awaitApplied(long id, long index, Duration timeout) {
        await(() -> status(id).map(s -> s.getAppliedIndex() >= index).orElse(false), timeout,
                "node " + id + " to apply index " + index);
    }

    /**
     * A digest of everything node {@code id} holds, read locally (SERIALIZABLE): nodes that
     * applied the same log have the same digest.
     */
    public Digest digest(long id) {
        return Digest.read(channel(id));
    }

    /** Membership changes: adding, removing and replacing nodes through the cluster's admin API. */
    public ClusterMembership membership() {
        return membership;
    }

    void closeProxy(long id) {
        FaultProxy proxy = proxies.remove(id);
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Asks the leader to hand leadership to {@code target}. */
    public void transferLeader(long target) {
        long leader = awaitLeader(Duration.ofSeconds(60));
        membershipCall(leader).transferLeader(TransferLeaderRequest.newBuilder().setTargetId(target).build());
    }

    static void await(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // A node may be starting, stopping or partitioned: only a final answer counts.
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
        throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what);
    }

    @Override
    public void close() {
        network.heal();
        for (NodeProcess p : processes.values()) {
            try {
                if (p.alive()) {
                    p.kill9();
                }
            } catch (RuntimeException e) {
                System.err.println("stopping node process " + p.pid() + " failed: " + e);
            }
        }
        proxies.values().forEach(FaultProxy::close);
        channels.values().forEach(ManagedChannel::shutdownNow);
        channels.clear();
    }
}
