package dev.strata.testkit.cluster;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.Consistency;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.KeyValue;
import dev.strata.proto.v1.MemberAddRequest;
import dev.strata.proto.v1.MemberListRequest;
import dev.strata.proto.v1.MemberPromoteRequest;
import dev.strata.proto.v1.MemberRemoveRequest;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
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
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
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
    /** The id of a member no cluster here ever has: a stale command line's only peer. */
    private static final long GONE_MEMBER = 999;

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
    private final Map<Long, Node> members = new ConcurrentSkipListMap<>();
    private final Map<Long, NodeProcess> processes = new ConcurrentHashMap<>();
    private final Map<Long, FaultProxy> proxies = new ConcurrentHashMap<>();
    private final Map<Long, ManagedChannel> channels = new ConcurrentHashMap<>();
    /** Wiped nodes started before their removal, waiting for it: running, but neither voting nor serving. */
    private final Set<Long> heldBack = ConcurrentHashMap.newKeySet();
    /** Settings for a node's next start only, over everything else. */
    private final Map<Long, Map<String, String>> nextStartSettings = new ConcurrentHashMap<>();
    private long nextId;

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

    private ClusterGrpc.ClusterBlockingStub admin(long id) {
        return ClusterGrpc.newBlockingStub(channel(id)).withDeadlineAfter(CALL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** For membership changes, which wait for the new configuration to commit (and a learner to catch up). */
    private ClusterGrpc.ClusterBlockingStub membership(long id) {
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
    private void awaitCaughtUp(long id, Duration timeout) {
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
     * A digest of everything node {@code id} holds, read locally (SERIALIZABLE): keys, values and
     * their revisions. Nodes that applied the same log have the same digest.
     */
    public Digest digest(long id) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channel(id));
        RangeRequest all = RangeRequest.newBuilder().setKey(ByteString.EMPTY).setRangeEnd(ByteString.copyFrom(new byte[] {0}))
                .setConsistency(Consistency.SERIALIZABLE).build();
        long count = 0;
        ByteString token = ByteString.EMPTY;
        do {
            RangeResponse page = kv.withDeadlineAfter(30, TimeUnit.SECONDS).range(all.toBuilder().setPageToken(token).build());
            for (KeyValue e : page.getKvsList()) {
                sha.update(ByteBuffer.allocate(4).putInt(e.getKey().size()).array());
                sha.update(e.getKey().asReadOnlyByteBuffer());
                sha.update(ByteBuffer.allocate(4).putInt(e.getValue().size()).array());
                sha.update(e.getValue().asReadOnlyByteBuffer());
                sha.update(ByteBuffer.allocate(24).putLong(e.getCreateRevision()).putLong(e.getModRevision())
                        .putLong(e.getVersion()).array());
                count++;
            }
            token = page.getNextPageToken();
        } while (!token.isEmpty());
        return new Digest(HexFormat.of().formatHex(sha.digest()), count);
    }

    /** A node's contents summarized: SHA-256 of the full scan and the number of keys. */
    public record Digest(String sha256, long keys) {}

    // ---- Membership ----------------------------------------------------------------------

    /**
     * Starts a new node in join mode, adds it as a learner, waits until it caught up, and promotes
     * it; returns its id.
     */
    public long addNode(Duration timeout) {
        long id = nextId++;
        Node n = new Node(id, Ports.free(), Ports.free(), Ports.free(), true);
        members.put(id, n);
        try {
            startNode(id);
            join(n, timeout);
            return id;
        } catch (RuntimeException e) {
            boolean member;
            try {
                member = configured(id).isPresent();
            } catch (RuntimeException unknown) {
                // No leader to ask whether the add went through. Stopping the node either way is
                // safe for the checks: an added member that is down is a node the cluster
                // tolerates losing, while a running non-member would be expected to hold data it
                // never received.
                e.addSuppressed(unknown);
                member = false;
            }
            if (!member) {
                // Not a member: the cluster goes on without it.
                kill9(id);
                members.remove(id);
                closeProxy(id);
            }
            throw e;
        }
    }

    /**
     * Brings back a stopped node whose data directory is gone, as an operator replaces a disk:
     * remove the member, then add it again, empty, through join, learner and promotion. (Started
     * in place as a voter it would break Raft's assumption that a node keeps what it
     * acknowledged; the node holds back, see {@link #startInPlaceExpectingHoldBack}.)
     */
    public void replaceWipedNode(long id, Duration timeout) {
        if (running(id)) {
            throw new IllegalStateException("node " + id + " must be stopped to be replaced");
        }
        removeFromConfiguration(id, timeout);
        join(startJoining(id), timeout);
    }

    /**
     * Replaces a wiped node as {@link #replaceWipedNode} does, but starts it in join mode first,
     * while the cluster still lists it as a voter, as an operator may: it must wait until it has
     * been removed before it starts, then it is added and promoted.
     */
    public void replaceWipedNodeStartedFirst(long id, Duration timeout) {
        if (running(id)) {
            throw new IllegalStateException("node " + id + " must be stopped to be replaced");
        }
        heldBack.add(id);
        Node fresh;
        try {
            fresh = startJoining(id);
            removeFromConfiguration(id, timeout);
        } finally {
            heldBack.remove(id);
        }
        join(fresh, timeout);
    }

    /**
     * Starts stopped node {@code id}, whose data directory was wiped, in place as the voter it
     * was, and checks that it holds back: within {@code timeout} its log says it waits, neither
     * voting nor serving, and its client port does not answer. Throws otherwise, after killing it.
     */
    public void startInPlaceExpectingHoldBack(long id, Duration timeout) {
        // Either refusal: started as a voter, or (a node that joined once) to join while still listed.
        startExpectingWait(id, "so it waits", "wiped and started in place", timeout);
    }

    /**
     * Starts stopped node {@code id}, whose data directory was wiped, to join with a command line
     * naming only a member that is gone (an id no cluster has, on a port nothing listens on), as
     * one written before the membership changed would; checks that within {@code timeout} its log
     * says no peer answers and it waits, and that its client port does not answer. Throws
     * otherwise, after killing it. The node stays held back until it is killed.
     */
    public void startToJoinAskingGonePeersExpectingWait(long id, Duration timeout) {
        nextStartSettings.put(id, Map.of("strata.cluster.join", "true",
                "strata.cluster.peers", GONE_MEMBER + "=127.0.0.1:" + Ports.free() + ":" + Ports.free()));
        try {
            startExpectingWait(id, "none of its peers", "wiped and started to join asking only a member that is gone", timeout);
        } finally {
            nextStartSettings.remove(id);
        }
    }

    /** Starts node {@code id} held back and waits for its log to say {@code logSays} while its client port stays shut. */
    private void startExpectingWait(long id, String logSays, String how, Duration timeout) {
        long logBefore = log(id).toFile().length();
        heldBack.add(id);
        try {
            startNode(id);
            await(() -> logSince(id, logBefore).contains(logSays), timeout, "node " + id + ", " + how + ", to say it waits");
            if (status(id).isPresent()) {
                throw new IllegalStateException("node " + id + ", " + how + ", serves although it waits");
            }
        } catch (RuntimeException e) {
            kill9(id);
            heldBack.remove(id);
            throw e;
        }
    }

    /** Removes node {@code id}, held back after a wipe, and walks it into the voters again. */
    public void replaceHeldBackNode(long id, Duration timeout) {
        removeFromConfiguration(id, timeout);
        heldBack.remove(id);
        join(members.get(id), timeout);
    }

    private String logSince(long id, long offset) {
        try (var in = Files.newInputStream(log(id))) {
            in.skipNBytes(Math.min(offset, Files.size(log(id))));
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log(id), e);
        }
    }

    /**
     * The first half of a replacement: removes stopped, wiped node {@code id}, starts it to join
     * and adds it as a learner, and returns while it catches up.
     */
    public void addWipedNodeAsLearner(long id, Duration timeout) {
        removeFromConfiguration(id, timeout);
        Node n = startJoining(id);
        await(() -> status(id).isPresent(), timeout, "node " + id + " to start");
        await(() -> {
            if (configured(id).isEmpty()) {
                membership(awaitLeader(timeout)).memberAdd(MemberAddRequest.newBuilder().setId(id)
                        .setRaftAddress(n.advertisedRaftAddress()).setClientAddress(n.clientAddress()).build());
            }
            return configured(id).isPresent();
        }, timeout, "node " + id + " to be added as a learner");
    }

    /** Starts learner {@code id}, stopped and wiped while it caught up, again to join; waits until it is promoted. */
    public void restartWipedLearner(long id, Duration timeout) {
        Node n = members.get(id);
        startNode(id);
        join(n, timeout);
    }

    /**
     * Waits until the log of node {@code id} says the replicated member directory records it, so
     * a start on a wiped disk would be held back (a node records itself about a second after it
     * first runs with a leader).
     */
    public void awaitRecordedInDirectory(long id, Duration timeout) {
        await(() -> logContains(id, "the member directory records node " + id), timeout,
                "node " + id + " to be recorded in the member directory");
    }

    private boolean logContains(long id, String text) {
        try {
            return Files.exists(log(id)) && Files.readString(log(id), java.nio.charset.StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log(id), e);
        }
    }

    private void removeFromConfiguration(long id, Duration timeout) {
        await(() -> {
            if (configured(id).isPresent()) {
                long leader = awaitLeader(timeout);
                LOG.info("removing node {} through leader {}", id, leader);
                membership(leader).memberRemove(MemberRemoveRequest.newBuilder().setId(id).build());
            }
            return configured(id).isEmpty();
        }, timeout, "node " + id + " to leave the configuration");
    }

    /** Starts node {@code id} afresh in join mode on its old ports. */
    private Node startJoining(long id) {
        Node old = members.get(id);
        Node fresh = new Node(id, old.clientPort(), old.raftPort(), old.proxyPort(), true);
        members.put(id, fresh);
        startNode(id);
        return fresh;
    }

    /**
     * Walks started node {@code n} (join mode) into the voters. A membership call that
     * times out may still complete (Ratis goes on with it), and a promotion that fails halfway
     * leaves the node out of the configuration (see {@code RaftNode.promote}), so each step
     * looks at the configuration and does what is left.
     */
    private void join(Node n, Duration timeout) {
        long id = n.id();
        await(() -> status(id).isPresent(), timeout, "node " + id + " to start");
        await(() -> {
            Optional<dev.strata.proto.v1.Member> m = configured(id);
            if (m.isEmpty()) {
                membership(awaitLeader(timeout)).memberAdd(MemberAddRequest.newBuilder().setId(id)
                        .setRaftAddress(n.advertisedRaftAddress()).setClientAddress(n.clientAddress()).build());
            } else if (m.get().getIsLearner()) {
                awaitCaughtUp(id, timeout);
                membership(awaitLeader(timeout)).memberPromote(MemberPromoteRequest.newBuilder().setId(id).build());
            } else {
                return true;
            }
            return false;
        }, timeout, "node " + id + " to be added, caught up and promoted");
    }

    /** Node {@code id} as the leader's configuration lists it, if it does. */
    private Optional<dev.strata.proto.v1.Member> configured(long id) {
        long leader = awaitLeader(Duration.ofSeconds(30));
        return admin(leader).memberList(MemberListRequest.getDefaultInstance()).getMembersList().stream()
                .filter(m -> m.getId() == id).findFirst();
    }

    /** Removes node {@code id} from the configuration, then stops its process. */
    public void removeNode(long id, Duration timeout) {
        await(() -> {
            if (configured(id).isPresent()) {
                long leader = awaitLeader(timeout);
                LOG.info("removing node {} through leader {}", id, leader);
                membership(leader).memberRemove(MemberRemoveRequest.newBuilder().setId(id).build());
            }
            return configured(id).isEmpty();
        }, timeout, "node " + id + " to leave the configuration");
        terminate(id);
        members.remove(id);
        closeProxy(id);
    }

    private void closeProxy(long id) {
        FaultProxy proxy = proxies.remove(id);
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Asks the leader to hand leadership to {@code target}. */
    public void transferLeader(long target) {
        long leader = awaitLeader(Duration.ofSeconds(60));
        membership(leader).transferLeader(TransferLeaderRequest.newBuilder().setTargetId(target).build());
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
