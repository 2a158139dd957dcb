package dev.strata.server.raft;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.WalMode;
import dev.strata.engine.WalRecovery;
import dev.strata.proto.v1.Command;
import dev.strata.proto.v1.MemberDirectory;
import dev.strata.proto.v1.MemberRecord;
import dev.strata.proto.v1.Query;
import dev.strata.server.config.PeerSpec;
import dev.strata.server.config.ServerConfig;
import dev.strata.server.kv.RequestValidator;
import dev.strata.server.tls.ServerTls;

import com.google.protobuf.MessageLite;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientRpc;
import org.apache.ratis.client.api.AdminApi;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.SnapshotManagementRequest;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One node's membership in the Raft group: the {@link RaftServer} with its
 * {@link KvStateMachine}, and the ways the rest of the server uses it.
 * <ul>
 *   <li>Writes go through the {@link Proposer}, which batches them into log entries and
 *       submits each batch to the local Raft server when this node leads, else to the leader.</li>
 *   <li>Linearizable reads first pass a ReadIndex barrier on the local server (a follower asks
 *       the leader for its commit index and waits until it has applied that far), then read
 *       the local engine; serializable reads skip the barrier.</li>
 *   <li>Membership changes are compare-and-set configuration changes, so two concurrent
 *       changes cannot silently undo each other.</li>
 * </ul>
 * Thread-safe.
 */
public final class RaftNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RaftNode.class);

    private final ServerConfig config;
    private final RaftPeerId selfId;
    private final CompletableFuture<Void> stoppedByItself = new CompletableFuture<>();
    /** Set when {@link #close} starts, so the state machine's close is told apart from Ratis shutting down by itself. */
    private volatile boolean closing;
    private final RaftGroupId groupId;
    private final RaftProperties properties;
    /** The transport's TLS; given to the server and to every client this node builds. */
    private final Parameters parameters = new Parameters();
    private final KvStateMachine stateMachine;
    private final RaftServer server;
    private final Map<Long, PeerSpec> configuredPeers;
    /** Identifies this node's own local requests (barriers, snapshots, transfers) to its server. */
    private final ClientId localClientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private volatile RaftServer.Division division;
    private RaftClient client;
    /** Carries batches of writes from a follower to the leader (Ratis's client transport, without its client). */
    private final RaftClient forwardingClient;
    /** The proposer's retries and deadlines. */
    private final ScheduledExecutorService raftTimers;
    /**
     * Work that follows a Raft reply but must not run on Ratis's threads: starting the next
     * batch of writes or ReadIndex round, and the reads a round released.
     */
    private final ExecutorService raftAsync;
    private final Proposer proposer;
    private final ReadBarrier readBarrier;
    private final DirectorySelfRecord selfRecord;

    /**
     * Builds the node's Raft server over the engine in {@code config.engineDir()}, its transport
     * and its checkpoint fetches secured as {@code tls} says. Nothing runs until {@link #start()}.
     *
     * @throws IOException when the Raft server cannot be created
     */
    public RaftNode(ServerConfig config, ServerTls tls) throws IOException {
        this.config = config;
        this.selfId = peerId(config.nodeId());
        this.groupId = groupId(config.clusterName());
        this.properties = RaftSettings.properties(config);
        tls.configureRaft(parameters);
        this.configuredPeers = config.peers().stream().collect(Collectors.toUnmodifiableMap(PeerSpec::id, p -> p));
        EngineOptions engineOptions = EngineOptions.builder()
                // The engine's own log, unsynced, spares a crashed node re-applying its log (see KvStateMachine).
                .walMode(WalMode.NO_SYNC)
                .walRecovery(WalRecovery.POINT_IN_TIME)
                // What that log replays stays in the memtable: the flush would delay serving, and
                // Raft keeps its log until the engine's own flushes make the entries durable.
                .flushAfterRecovery(false)
                .writeBufferSize(config.writeBufferSize())
                .blockCacheSize(config.blockCacheSize())
                .compactionThreads(config.compactionThreads())
                .compressionPolicy(config.engineCompression())
                .deltaRetention(config.deltaRetention())
                .build();
        this.stateMachine = new KvStateMachine(config.engineDir(), engineOptions, new RequestValidator(config.limits()),
                config.snapshotThresholdEntries(), config.snapshotThresholdBytes(), config.logSegmentSize());
        stateMachine.setLeaderClientAddresses(this::leaderClientAddress);
        stateMachine.setCheckpointCredentials(tls.clientPortChannelCredentials());
        // A leader whose engine failed refuses every write: let a healthy voter lead instead.
        stateMachine.onFailure(() -> Thread.ofPlatform().daemon().name("strata-handover")
                .start(() -> handOverLeadership(Duration.ofSeconds(5))));
        stateMachine.onLogFailure(this::stopAfterLogFailure);
        stateMachine.onClose(() -> {
            if (!closing) {
                LOG.error("node {}: the Raft server shut down by itself ({}); this node cannot serve any more", config.nodeId(),
                        stateMachine.logFailed() ? "its Raft log could not be written"
                                : "Ratis does so when this node finds it is not in the configuration, or when it leads and is removed");
                stoppedByItself.complete(null);
            }
        });
        // A member that lost its disk waits here until the cluster has removed it, then joins.
        boolean join = config.join();
        if (ReplacedDiskGuard.nothingOnDisk(config.raftDir(), config.engineDir())) {
            List<RaftPeer> others = initialPeers(config).stream().filter(p -> !p.getId().equals(selfId)).toList();
            join = ReplacedDiskGuard.joinsAfterRemoval(config.nodeId(), config.join(), others,
                    p -> newClient(List.of(p), p.getId(), RetryPolicies.noRetry()));
        }
        // A restarted node's stored configuration wins over either of these.
        RaftGroup group = join ? RaftGroup.valueOf(groupId, joiningSelf(config)) : RaftGroup.valueOf(groupId, initialPeers(config));
        this.server = RaftServer.newBuilder()
                .setServerId(selfId)
                .setGroup(group)
                .setStateMachine(stateMachine)
                .setProperties(properties)
                .setParameters(parameters)
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
        this.forwardingClient = newClient(initialPeers(config), null, RetryPolicies.noRetry());
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, daemon("strata-raft-timer"));
        // A batch's deadline task holds its writes; it is cancelled when the batch is answered,
        // and must leave the queue then, not at its deadline.
        timers.setRemoveOnCancelPolicy(true);
        this.raftTimers = timers;
        this.raftAsync = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
                daemon("strata-raft-async"));
        this.readBarrier = new ReadBarrier(this::readIndexRound, raftAsync);
        PeerSpec self = configuredPeers.get(config.nodeId());
        this.selfRecord = new DirectorySelfRecord(config.nodeId(), selfId, self == null ? null : self.clientAddress(),
                stateMachine, () -> division, this::write, raftTimers);
        this.proposer = new Proposer(selfId, groupId, new ProposerTransport(), RaftSettings.proposerLimits(config),
                raftAsync, raftTimers);
    }

    private static ThreadFactory daemon(String name) {
        AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The proposer's way to the log: the local server when this node leads, else the leader. */
    private final class ProposerTransport implements Proposer.Transport {
        @Override
        public boolean leading() {
            RaftServer.Division d = division;
            return d != null && d.getInfo().isLeader();
        }

        @Override
        public RaftPeerId leader() {
            RaftServer.Division d = division;
            return d == null ? null : d.getInfo().getLeaderId();
        }

        @Override
        public CompletableFuture<RaftClientReply> submitLocally(RaftClientRequest request) throws IOException {
            return submitToDivision(request);
        }

        @Override
        public CompletableFuture<RaftClientReply> send(RaftPeerId target, RaftClientRequest request) {
            RaftClientRpc rpc = forwardingClient.getClientRpc();
            // Members added since this node started are unknown to the transport until now.
            RaftServer.Division d = division;
            if (d != null) {
                rpc.addRaftPeers(d.getRaftConf().getAllPeers());
            }
            return rpc.sendRequestAsyncUnordered(request);
        }

        @Override
        public void transportFailed(RaftPeerId target, Throwable cause) {
            forwardingClient.getClientRpc().handleException(target, cause, false);
        }
    }

    /**
     * A joining node's placeholder configuration: itself as a listener, and no voters, until the
     * leader's first append brings the cluster's configuration. Started this way, Ratis gives the
     * node its LISTENER role, and a listener never campaigns. Started with no peers instead, it
     * would take the FOLLOWER role while not in any configuration; an election timeout then (the
     * leader busy catching it up, or dropping it from the listeners) ends in Ratis's NOT_IN_CONF
     * result, which shuts the Raft server down for good and leaves a process that serves nothing.
     * It becomes a follower once a committed configuration lists it as a voter (see {@link #promote}).
     */
    private static RaftPeer joiningSelf(ServerConfig config) {
        return RaftPeer.newBuilder().setId(peerId(config.nodeId())).setAddress(config.self().raftAddress())
                .setStartupRole(RaftPeerRole.LISTENER).build();
    }

    private static List<RaftPeer> initialPeers(ServerConfig config) {
        List<PeerSpec> specs = config.peers().isEmpty() ? List.of(config.self()) : config.peers();
        return specs.stream().map(p -> RaftPeer.newBuilder().setId(peerId(p.id())).setAddress(p.raftAddress()).build()).toList();
    }

    /** The Raft peer id of node {@code id}. */
    static RaftPeerId peerId(long id) {
        return RaftPeerId.valueOf(Long.toString(id));
    }

    /** The group id every node of a cluster derives from its name. */
    static RaftGroupId groupId(String clusterName) {
        return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("strata:" + clusterName).getBytes(StandardCharsets.UTF_8)));
    }

    /** Starts the Raft server: opens the engine, replays the log after its durable marker, joins the group. */
    public void start() throws IOException {
        StoppedFollowerStateRelease.scheduleOn(raftTimers, config.nodeId());
        server.start();
        division = server.getDivision(groupId);
        selfRecord.start();
    }

    /**
     * Closes the Raft server after its log failed to write (see {@link KvStateMachine#notifyLogFailed}),
     * and returns once it takes no more appends: its close starts by leaving the RUNNING state. This
     * runs on Ratis's log worker thread, which the close waits for, so the close gets a thread of its
     * own; the node then ends as one whose server {@linkplain #stoppedByItself stopped by itself}.
     */
    private void stopAfterLogFailure() {
        RaftServer.Division d;
        try {
            d = server.getDivision(groupId); // not the field: a write may fail before start() has set it
        } catch (IOException e) {
            LOG.error("node {}: its Raft log failed but its Raft server cannot be found to stop it: {}", config.nodeId(), e.toString(), e);
            return;
        }
        Thread.ofPlatform().daemon().name("strata-log-failure-stop").start(() -> {
            try {
                d.close();
            } catch (RuntimeException e) {
                LOG.error("node {}: closing the Raft server after its log failed: {}", config.nodeId(), e.toString(), e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (d.getInfo().isAlive() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public long id() {
        return config.nodeId();
    }

    /** This node's Raft division, once {@link #start} has run; for tests that reach into Ratis. */
    RaftServer.Division division() {
        return division;
    }

    public KvStateMachine stateMachine() {
        return stateMachine;
    }

    // ------------------------------------------------------------------ data path

    /**
     * Replicates a command and returns the response its application produced on the leader.
     * Fails as {@link Proposer#propose} says: with the command's refusal, or UNAVAILABLE-kind
     * and timeout failures when no leader could take it in time.
     */
    public CompletableFuture<WriteReply> write(Command command) {
        RaftServer.Division d = division;
        if (d != null && d.getRaftConf().getAllPeers(RaftPeerRole.FOLLOWER).isEmpty()) {
            // A joining node's placeholder configuration (see joiningSelf): there is no leader to ask.
            return CompletableFuture.failedFuture(new NodeUnavailableException("node " + config.nodeId()
                    + " is not a member of a cluster yet; add it with Cluster/MemberAdd"));
        }
        return proposer.propose(command);
    }

    /**
     * Completes once this node has applied everything committed when it was called (Raft's
     * ReadIndex), so a local read after it is linearizable. Concurrent reads share rounds
     * ({@link ReadBarrier}).
     */
    public CompletableFuture<Void> linearizableBarrier() {
        return readBarrier.await();
    }

    /** One ReadIndex round on the local server. */
    private CompletableFuture<Void> readIndexRound() {
        RaftClientRequest request = localRequest(Message.EMPTY, RaftClientRequest.readRequestType(false, false, true));
        try {
            return submitToDivision(request).thenApply(reply -> {
                content(reply);
                return null;
            });
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Submits a request to this node's Raft division on the calling thread. The server-level
     * {@code submitClientRequestAsync} hands every request to an executor and blocks until it
     * is queued, a thread switch per request; calls come here from the API's and the proposer's
     * own threads instead, never from Ratis's callbacks (where Ratis holds locks the submission
     * takes).
     */
    private CompletableFuture<RaftClientReply> submitToDivision(RaftClientRequest request) throws IOException {
        RaftServer.Division d = division;
        if (d instanceof RaftClientAsynchronousProtocol direct) {
            return direct.submitClientRequestAsync(request);
        }
        return server.submitClientRequestAsync(request);
    }

    /**
     * Whether this node's Raft server can run a ReadIndex round itself. A learner added at run
     * time cannot: Ratis 3.3 keeps such a listener in its STARTING state (it never marks it caught
     * up), and a starting server refuses client requests.
     */
    public boolean servesReadIndex() {
        return division.getInfo().getLifeCycleState() == LifeCycle.State.RUNNING;
    }

    /**
     * A linearizable read served by the leader (ReadIndex there, then its state machine's
     * {@link KvStateMachine#query}); for nodes that cannot run the round themselves.
     */
    public CompletableFuture<ByteBuffer> readThroughLeader(Query query) {
        return sendThroughClient(c -> c.async().sendReadOnly(message(query)));
    }

    /**
     * Sends one request through the node's Ratis client and returns the reply's content.
     *
     * <p>Ratis's ordered async client is single-use after a failure: once one request exhausts its
     * retries (or fails with an error it does not retry), its sliding window stays failed and
     * every later request is refused with {@code AlreadyClosedException}. So a client whose
     * request failed on the client side is retired and the next request builds a fresh one from
     * the membership this node knows then. A refusal by the state machine arrives as a reply,
     * not as a failed send, and keeps the client.
     */
    private CompletableFuture<ByteBuffer> sendThroughClient(Function<RaftClient, CompletableFuture<RaftClientReply>> send) {
        RaftClient c;
        try {
            c = client();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return send.apply(c)
                .whenComplete((reply, failure) -> {
                    if (failure != null) {
                        retire(c, failure);
                    }
                })
                .thenApply(reply -> content(reply).asReadOnlyByteBuffer());
    }

    /** Reads the local engine; see {@link KvStateMachine#read}. */
    public <T> T read(ReadFunction<T> read) {
        return stateMachine.read(read);
    }

    // ------------------------------------------------------------------ status

    public NodeStatus status() {
        RaftServer.Division d = division;
        DivisionInfo info = d.getInfo();
        RaftLog log = d.getRaftLog();
        RaftPeerId leader = info.getLeaderId();
        Throwable failure = stateMachine.failure();
        // A node that joined as a learner keeps Ratis' FOLLOWER role; the configuration says what it is.
        RaftConfiguration conf = d.getRaftConf();
        RaftPeerRole role = conf.getPeer(selfId, RaftPeerRole.LISTENER) != null ? RaftPeerRole.LISTENER : info.getCurrentRole();
        return new NodeStatus(config.nodeId(), role, leader == null ? 0 : Long.parseLong(leader.toString()),
                info.getCurrentTerm(), log.getLastCommittedIndex(), stateMachine.getLastAppliedTermIndex().getIndex(),
                stateMachine.durableIndex(), log.getStartIndex(), isMember(conf),
                stateMachine.checkpointNeeded() != null, failure == null ? null : failure.getMessage());
    }

    /** Listed by a cluster's configuration; a joining node's placeholder (see {@link #joiningSelf}) has no voters. */
    private boolean isMember(RaftConfiguration conf) {
        return conf.getPeer(selfId, RaftPeerRole.FOLLOWER, RaftPeerRole.LISTENER) != null
                && !conf.getAllPeers(RaftPeerRole.FOLLOWER).isEmpty();
    }

    /** The current term, cheap enough for every response header. */
    public long term() {
        return division.getInfo().getCurrentTerm();
    }

    /** The known leader and its client address (empty when unknown to this node). */
    public Optional<Member> leader() {
        RaftPeerId leader = division.getInfo().getLeaderId();
        if (leader == null) {
            return Optional.empty();
        }
        long id = Long.parseLong(leader.toString());
        RaftPeer peer = division.getRaftConf().getPeer(leader, RaftPeerRole.FOLLOWER, RaftPeerRole.LISTENER);
        return Optional.of(new Member(id, peer == null ? "" : peer.getAddress(), clientAddress(id), false));
    }

    /** Whether the process can serve at all: the Raft server runs and the engine has not failed. */
    public boolean healthy() {
        RaftServer.Division d = division;
        return d != null && d.getInfo().isAlive() && stateMachine.failure() == null;
    }

    /**
     * Why this node should not get traffic, or empty when it should: it must be healthy, a
     * member of a group with a known leader, and applied to within
     * {@code strata.server.ready-max-lag} entries of the commit index.
     */
    public Optional<String> notReady() {
        Throwable failure = stateMachine.failure();
        if (failure != null) {
            return Optional.of("storage failed: " + failure.getMessage());
        }
        if (!healthy()) {
            return Optional.of("the Raft server is not running");
        }
        NodeStatus s = status();
        if (!s.member()) {
            return Optional.of("not a member of the cluster's configuration (yet)");
        }
        if (s.leaderId() == 0) {
            return Optional.of("no leader is known");
        }
        if (s.needsCheckpoint()) {
            return Optional.of("behind the leader's purged log; it needs a checkpoint");
        }
        long lag = s.commitIndex() - s.appliedIndex();
        if (lag > config.readyMaxLag()) {
            return Optional.of("applied index " + s.appliedIndex() + " is " + lag + " entries behind the commit index "
                    + s.commitIndex() + " (strata.server.ready-max-lag is " + config.readyMaxLag() + ")");
        }
        return Optional.empty();
    }

    /** Whether {@link #notReady()} finds nothing. */
    public boolean ready() {
        return notReady().isEmpty();
    }

    /** The current configuration's voters and learners, in id order. */
    public List<Member> members() {
        RaftConfiguration conf = division.getRaftConf();
        List<Member> members = new ArrayList<>();
        if (conf.getCurrentPeers(RaftPeerRole.FOLLOWER).isEmpty()) {
            return members; // a joining node's placeholder (see joiningSelf): no cluster known yet
        }
        conf.getCurrentPeers(RaftPeerRole.FOLLOWER).forEach(p -> members.add(member(p, false)));
        conf.getCurrentPeers(RaftPeerRole.LISTENER).forEach(p -> members.add(member(p, true)));
        members.sort((a, b) -> Long.compare(a.id(), b.id()));
        return members;
    }

    private Member member(RaftPeer p, boolean learner) {
        long id = Long.parseLong(p.getId().toString());
        return new Member(id, p.getAddress(), clientAddress(id), learner);
    }

    /** A member's gRPC address: from the replicated directory, else from this node's peer list, else "". */
    public String clientAddress(long id) {
        String recorded = stateMachine.memberAddress(id);
        if (recorded != null) {
            return recorded;
        }
        PeerSpec configured = configuredPeers.get(id);
        return configured == null ? "" : configured.clientAddress();
    }

    /**
     * The client address of {@code leader}, where its checkpoint service listens: what this node
     * knows ({@link #clientAddress}), else the leader's own answer, asked over its Raft port. A
     * node that joined needs the second way: its copy of the directory is empty until it has
     * caught up, and its peer list (often none) need not name a leader that joined after it was
     * written. "" when neither way gives one.
     */
    String leaderClientAddress(RaftPeer leader) {
        long id = Long.parseLong(leader.getId().toString());
        String known = clientAddress(id);
        if (!known.isEmpty() || leader.getAddress() == null || leader.getAddress().isEmpty()) {
            return known;
        }
        Message directoryQuery = message(Query.newBuilder().setMembers(true).build());
        try (RaftClient asking = newClient(List.of(leader), leader.getId(), RetryPolicies.noRetry())) {
            // A stale read at index 0: the leader answers from its directory without a ReadIndex round.
            RaftClientReply reply = await(asking.async().sendStaleRead(directoryQuery, 0, leader.getId()),
                    Duration.ofSeconds(5), "asking node " + id + " for its client address");
            String asked = MemberDirectory.parseFrom(content(reply).asReadOnlyByteBuffer()).getMembersList().stream()
                    .filter(m -> m.getId() == id).map(MemberRecord::getClientAddress).findFirst().orElse("");
            LOG.info("node {}: the leader {} gives its client address as '{}'", config.nodeId(), id, asked);
            return asked;
        } catch (IOException | TimeoutException | RuntimeException e) {
            LOG.warn("node {}: cannot ask the leader {} at {} for its client address: {}", config.nodeId(), id,
                    leader.getAddress(), e.toString());
            return "";
        }
    }

    // ------------------------------------------------------------------ membership (blocking, bounded by timeout)

    /**
     * Adds node {@code id} as a learner (a Ratis listener): records its client address in the
     * replicated directory, then adds it to the configuration. Start the node (with join) first.
     */
    public List<Member> addLearner(long id, String raftAddress, String clientAddress, Duration timeout)
            throws IOException, TimeoutException {
        RaftConfiguration conf = division.getRaftConf();
        if (conf.getPeer(peerId(id), RaftPeerRole.FOLLOWER, RaftPeerRole.LISTENER) != null) {
            throw new MembershipException(MembershipException.Reason.ALREADY_MEMBER, "node " + id + " is already a member");
        }
        await(write(Command.newBuilder().setSetMember(MemberRecord.newBuilder().setId(id).setClientAddress(clientAddress)).build()),
                timeout, "recording node " + id + "'s address");
        RaftPeer peer = RaftPeer.newBuilder().setId(peerId(id)).setAddress(raftAddress).setStartupRole(RaftPeerRole.LISTENER).build();
        List<RaftPeer> listeners = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.LISTENER));
        listeners.add(peer);
        changeConfiguration(conf, new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.FOLLOWER)), listeners);
        LOG.info("node {} ({}, client {}) added as a learner", id, raftAddress, clientAddress);
        return members();
    }

    /**
     * Makes learner {@code id} a voter, in one configuration change that moves it from the
     * listeners to the voters. It stays in some configuration throughout: taking it out of the
     * listeners first and adding it back as a new voter would leave it, between the two changes,
     * listed nowhere (a node that times out then is shut down by Ratis), and would make the
     * leader stage it from index 0 again although it holds the log.
     */
    public List<Member> promote(long id) throws IOException {
        RaftConfiguration conf = division.getRaftConf();
        RaftPeer learner = conf.getPeer(peerId(id), RaftPeerRole.LISTENER);
        if (learner == null) {
            throw conf.getPeer(peerId(id), RaftPeerRole.FOLLOWER) != null
                    ? new MembershipException(MembershipException.Reason.WRONG_ROLE, "node " + id + " is already a voter")
                    : new MembershipException(MembershipException.Reason.NO_SUCH_MEMBER, "node " + id + " is not a member");
        }
        List<RaftPeer> voters = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.FOLLOWER));
        voters.add(RaftPeer.newBuilder(learner).setStartupRole(RaftPeerRole.FOLLOWER).build());
        List<RaftPeer> listeners = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.LISTENER));
        listeners.removeIf(p -> p.getId().equals(learner.getId()));
        changeConfiguration(conf, voters, listeners);
        LOG.info("node {} promoted to voter", id);
        return members();
    }

    /** Removes voter or learner {@code id} from the configuration and the directory. */
    public List<Member> remove(long id, Duration timeout) throws IOException, TimeoutException {
        RaftConfiguration conf = division.getRaftConf();
        RaftPeerId target = peerId(id);
        if (conf.getPeer(target, RaftPeerRole.FOLLOWER, RaftPeerRole.LISTENER) == null) {
            throw new MembershipException(MembershipException.Reason.NO_SUCH_MEMBER, "node " + id + " is not a member");
        }
        List<RaftPeer> voters = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.FOLLOWER));
        List<RaftPeer> listeners = new ArrayList<>(conf.getCurrentPeers(RaftPeerRole.LISTENER));
        voters.removeIf(p -> p.getId().equals(target));
        listeners.removeIf(p -> p.getId().equals(target));
        if (voters.isEmpty()) {
            throw new MembershipException(MembershipException.Reason.WRONG_ROLE, "node " + id + " is the last voter");
        }
        changeConfiguration(conf, voters, listeners);
        await(write(Command.newBuilder().setRemoveMember(id).build()), timeout, "dropping node " + id + "'s address");
        LOG.info("node {} removed", id);
        return members();
    }

    /** Hands leadership to voter {@code id} and waits until it leads. */
    public void transferLeadership(long id, Duration timeout) throws IOException {
        if (division.getRaftConf().getPeer(peerId(id), RaftPeerRole.FOLLOWER) == null) {
            throw new MembershipException(MembershipException.Reason.NO_SUCH_MEMBER, "node " + id + " is not a voter");
        }
        content(adminCall(admin -> admin.transferLeadership(peerId(id), timeout.toMillis())));
        LOG.info("leadership transferred to node {}", id);
    }

    /**
     * Takes a checkpoint on this node now (flush; the log may then be purged); returns the index it
     * covers, at least the index applied at the call.
     */
    public long checkpoint(Duration timeout) throws IOException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long appliedAtCall = stateMachine.getLastAppliedTermIndex().getIndex();
        CheckpointScheduler checkpoints = stateMachine.checkpoints();
        checkpoints.requestNow();
        try {
            while (true) {
                Duration left = Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
                SnapshotManagementRequest request = SnapshotManagementRequest.newCreate(localClientId, selfId, groupId,
                        callIds.incrementAndGet(), left.toMillis(), 1);
                RaftClientReply reply = await(server.snapshotManagementAsync(request), left, "taking a checkpoint");
                content(reply);
                if (!checkpoints.nowPending() || reply.getLogIndex() >= appliedAtCall) {
                    // Taken by the state machine, or answered by Ratis without asking it because the
                    // engine's files already held everything applied (its creation gap).
                    if (reply.getLogIndex() < 0) {
                        // The state machine took none: it is adding a member (see StagedPeers), or it failed.
                        throw new NodeUnavailableException("node " + config.nodeId() + " took no checkpoint now"
                                + stateMachine.snapshotDeferral().map(peers -> ": it is adding " + peers
                                + ", which reads the log a checkpoint would purge; retry once it has joined").orElse(""));
                    }
                    return reply.getLogIndex();
                }
                // Ratis answered a request made just before ours (the report of a background
                // checkpoint), whose snapshot began before we asked: ask again.
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException("taking a checkpoint did not finish within " + timeout.toMillis() + " ms");
                }
            }
        } finally {
            // Whatever ended the call, no later snapshot may take this request on the apply thread.
            checkpoints.cancelNow();
        }
    }

    private void changeConfiguration(RaftConfiguration current, List<RaftPeer> voters, List<RaftPeer> listeners) throws IOException {
        changeConfiguration(new ArrayList<>(current.getCurrentPeers(RaftPeerRole.FOLLOWER)),
                new ArrayList<>(current.getCurrentPeers(RaftPeerRole.LISTENER)), voters, listeners);
    }

    /**
     * Sets the configuration if it is still the expected one (compare-and-set), and waits until it
     * is committed: until the call returns or this node sees the change committed, whichever comes
     * first (see {@link ConfigurationChangeCall}).
     */
    private void changeConfiguration(List<RaftPeer> expectedVoters, List<RaftPeer> expectedListeners,
                                     List<RaftPeer> voters, List<RaftPeer> listeners) throws IOException {
        SetConfigurationRequest.Arguments args = SetConfigurationRequest.Arguments.newBuilder()
                .setServersInNewConf(voters)
                .setListenersInNewConf(listeners)
                .setServersInCurrentConf(expectedVoters)
                .setListenersInCurrentConf(expectedListeners)
                .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
                .build();
        ConfigurationChangeCall.run(() -> content(adminCall(admin -> admin.setConfiguration(args))),
                () -> committedConfigurationIs(voters, listeners), "the configuration change to voters " + ids(voters)
                        + ", learners " + ids(listeners));
    }

    /** Whether this node's configuration is stable, committed, and holds exactly these voters and listeners. */
    private boolean committedConfigurationIs(List<RaftPeer> voters, List<RaftPeer> listeners) {
        RaftConfiguration conf = division.getRaftConf();
        return conf.getPreviousPeers().isEmpty() && conf.getLogEntryIndex() <= division.getRaftLog().getLastCommittedIndex()
                && ids(conf.getCurrentPeers(RaftPeerRole.FOLLOWER)).equals(ids(voters))
                && ids(conf.getCurrentPeers(RaftPeerRole.LISTENER)).equals(ids(listeners));
    }

    private static Set<RaftPeerId> ids(Collection<RaftPeer> peers) {
        return peers.stream().map(RaftPeer::getId).collect(Collectors.toSet());
    }

    /** A blocking call of Ratis's admin API, made through {@link #adminCall}. */
    @FunctionalInterface
    private interface AdminCall {
        RaftClientReply send(AdminApi admin) throws IOException;
    }

    /**
     * Makes {@code call} on a Raft client of its own, closed afterwards. Not on the shared client:
     * that one is retired (closed) whenever a request on it fails, which under a failing disk or
     * lossy links can happen again and again while an admin call waits, and Ratis then gives up
     * on the call with "... is closed". Admin calls are rare, so a client each costs little.
     */
    private RaftClientReply adminCall(AdminCall call) throws IOException {
        RaftClient own = newClient(voters(), division.getInfo().getLeaderId(), RaftSettings.clientRetryPolicy(config.requestTimeout()));
        try {
            return call.send(own.admin());
        } finally {
            closeInBackground(own, "an admin call's Raft client");
        }
    }

    // ------------------------------------------------------------------ shutdown

    /**
     * If this node leads, hands leadership to another voter so the cluster does not wait an
     * election timeout for a new leader. Best effort: a failure is logged, not thrown.
     */
    public void handOverLeadership(Duration timeout) {
        RaftServer.Division d = division;
        if (d == null || !d.getInfo().isLeader()) {
            return;
        }
        Collection<RaftPeer> voters = d.getRaftConf().getCurrentPeers(RaftPeerRole.FOLLOWER);
        Optional<RaftPeer> target = voters.stream().filter(p -> !p.getId().equals(selfId)).findFirst();
        if (target.isEmpty()) {
            return;
        }
        TransferLeadershipRequest request = new TransferLeadershipRequest(localClientId, selfId, groupId,
                callIds.incrementAndGet(), target.get().getId(), timeout.toMillis());
        try {
            RaftClientReply reply = await(server.transferLeadershipAsync(request), timeout.plusSeconds(1), "handing over leadership");
            content(reply);
            LOG.info("handed leadership to node {} before stopping", target.get().getId());
        } catch (IOException | TimeoutException | RuntimeException e) {
            LOG.warn("could not hand leadership to node {} before stopping (the others will elect one): {}",
                    target.get().getId(), e.toString());
        }
    }

    /**
     * Completes when the Raft server shut down without {@link #close} being called: the node then
     * serves nothing until its process restarts, so the process should end (as a removed etcd
     * member's does) for a supervisor to see.
     */
    public CompletableFuture<Void> stoppedByItself() {
        return stoppedByItself;
    }

    /** Closes the Raft client and server; the server's close snapshots (flushes) and closes the engine. */
    @Override
    public void close() throws IOException {
        closing = true;
        selfRecord.stop();
        proposer.close();
        IOException failure = null;
        synchronized (this) {
            if (client != null) {
                try {
                    client.close();
                } catch (IOException e) {
                    failure = e;
                }
                client = null;
            }
        }
        try {
            forwardingClient.close();
        } catch (IOException e) {
            failure = e;
        }
        try {
            server.close();
        } catch (IOException e) {
            if (failure != null) {
                e.addSuppressed(failure);
            }
            throw e;
        } finally {
            raftTimers.shutdownNow();
            raftAsync.shutdown();
        }
        if (failure != null) {
            throw failure;
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Replaces {@code failed} by a new client on next use, unless another caller already did. */
    private void retire(RaftClient failed, Throwable why) {
        synchronized (this) {
            if (client != failed) {
                return;
            }
            client = null;
        }
        LOG.info("node {}: the Raft client failed a request ({}); the next request uses a new client",
                config.nodeId(), why.toString());
        closeInBackground(failed, "the failed Raft client");
    }

    /**
     * Closes {@code c} on a thread of its own: closing waits up to seconds for the client's
     * channels to drain, and the caller may be one of that client's own threads.
     */
    private void closeInBackground(RaftClient c, String what) {
        Thread.ofVirtual().name("raft-client-close-" + config.nodeId()).start(() -> {
            try {
                c.close();
            } catch (IOException e) {
                LOG.warn("node {}: closing {}: {}", config.nodeId(), what, e.toString());
            }
        });
    }

    /** The Ratis client, built on first use from the configuration this node knows then. */
    private synchronized RaftClient client() {
        if (client == null) {
            client = newClient(voters(), division.getInfo().getLeaderId(), RaftSettings.clientRetryPolicy(config.requestTimeout()));
        }
        return client;
    }

    /** Where requests go: the voters, since a learner cannot lead and a joining node lists only itself. */
    private Collection<RaftPeer> voters() {
        Collection<RaftPeer> peers = division.getRaftConf().getAllPeers(RaftPeerRole.FOLLOWER);
        if (peers.isEmpty()) {
            throw new NodeUnavailableException("node " + config.nodeId()
                    + " is not a member of a cluster yet; add it with Cluster/MemberAdd");
        }
        return peers;
    }

    /** A Ratis client of this node's group, over this node's transport (and its TLS). */
    private RaftClient newClient(Collection<RaftPeer> peers, RaftPeerId leader, RetryPolicy retryPolicy) {
        return RaftClient.newBuilder()
                .setClientId(ClientId.randomId())
                .setRaftGroup(RaftGroup.valueOf(groupId, peers))
                .setLeaderId(leader)
                .setProperties(properties)
                .setParameters(parameters)
                .setRetryPolicy(retryPolicy)
                .build();
    }

    private RaftClientRequest localRequest(Message message, RaftClientRequest.Type type) {
        return RaftClientRequest.newBuilder()
                .setClientId(localClientId)
                .setServerId(selfId)
                .setGroupId(groupId)
                .setCallId(callIds.incrementAndGet())
                .setMessage(message)
                .setType(type)
                .build();
    }

    private static Message message(MessageLite m) {
        return Message.valueOf(UnsafeByteOperations.unsafeWrap(m.toByteArray()));
    }

    /** The reply's message, or its exception thrown (wrapped for futures) when it failed. */
    private static org.apache.ratis.thirdparty.com.google.protobuf.ByteString content(RaftClientReply reply) {
        if (!reply.isSuccess()) {
            Exception e = reply.getException();
            throw new CompletionException(e != null ? e : new IOException("request failed without a reason: " + reply));
        }
        Message m = reply.getMessage();
        return m == null ? org.apache.ratis.thirdparty.com.google.protobuf.ByteString.EMPTY : m.getContent();
    }

    private static <T> T await(CompletableFuture<T> future, Duration timeout, String what) throws IOException, TimeoutException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + what, e);
        } catch (ExecutionException e) {
            throw new CompletionException(e.getCause());
        } catch (TimeoutException e) {
            future.cancel(false);
            TimeoutException t = new TimeoutException(what + " did not finish within " + timeout.toMillis() + " ms");
            t.initCause(e);
            throw t;
        }
    }
}
