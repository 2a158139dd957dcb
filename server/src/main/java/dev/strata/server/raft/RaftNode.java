package dev.strata.server.raft;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.WalMode;
import dev.strata.engine.WalRecovery;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.internal.v1.Query;
import dev.strata.server.config.PeerSpec;
import dev.strata.server.config.ServerConfig;
import dev.strata.server.kv.RequestValidator;
import dev.strata.server.tls.ServerTls;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * One node's membership in the Raft group: the {@link RaftServer} with its
 * {@link KvStateMachine}, wired together, and the ways the rest of the server uses it.
 * <ul>
 *   <li>Writes go through the {@link Proposer}, which batches them into log entries and
 *       submits each batch to the local Raft server when this node leads, else to the leader
 *       ({@link DivisionTransport}).</li>
 *   <li>Linearizable reads first pass a ReadIndex barrier on the local server (a follower asks
 *       the leader for its commit index and waits until it has applied that far), then read
 *       the local engine; serializable reads skip the barrier.</li>
 *   <li>Membership changes ({@link Membership}) are compare-and-set configuration changes, so
 *       two concurrent changes cannot silently undo each other.</li>
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
    private volatile RaftServer.Division division;
    private final RaftClients clients;
    private final ClientAddresses clientAddresses;
    private final Membership membership;
    /** Carries batches of writes from a follower to the leader (Ratis's client transport, without its client). */
    private final RaftClient forwardingClient;
    /** The proposer's retries and deadlines. */
    private final ScheduledExecutorService raftTimers;
    /**
     * Work that follows a Raft reply but must not run on Ratis's threads: starting the next
     * batch of writes or ReadIndex round, and the reads a round released.
     */
    private final ExecutorService raftAsync;
    private final DivisionTransport transport;
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
        Map<Long, PeerSpec> configuredPeers = config.peers().stream().collect(Collectors.toUnmodifiableMap(PeerSpec::id, p -> p));
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
                config.snapshotThresholdEntries(), config.snapshotThresholdBytes(), config.logSegmentSize(),
                tls.clientPortChannelCredentials(), new StateMachineEvents());
        this.clients = new RaftClients(config.nodeId(), groupId, properties, parameters,
                RaftSettings.clientRetryPolicy(config.requestTimeout()), () -> division);
        this.clientAddresses = new ClientAddresses(config.nodeId(), stateMachine::memberAddress, configuredPeers, clients);
        this.membership = new Membership(() -> division, clients, clientAddresses, this::write);
        // A member that lost its disk waits here until the cluster has removed it, then joins.
        boolean join = config.join();
        if (ReplacedDiskGuard.nothingOnDisk(config.raftDir(), config.engineDir())) {
            List<RaftPeer> others = initialPeers(config).stream().filter(p -> !p.getId().equals(selfId)).toList();
            join = ReplacedDiskGuard.joinsAfterRemoval(config.nodeId(), config.join(), others,
                    p -> clients.newClient(List.of(p), p.getId(), RetryPolicies.noRetry()));
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
        this.forwardingClient = clients.newClient(initialPeers(config), null, RetryPolicies.noRetry());
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, daemon("strata-raft-timer"));
        // A batch's deadline task holds its writes; it is cancelled when the batch is answered,
        // and must leave the queue then, not at its deadline.
        timers.setRemoveOnCancelPolicy(true);
        this.raftTimers = timers;
        this.raftAsync = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
                daemon("strata-raft-async"));
        this.transport = new DivisionTransport(server, () -> division, forwardingClient, selfId, groupId);
        this.readBarrier = new ReadBarrier(transport::readIndexRound, raftAsync);
        PeerSpec self = configuredPeers.get(config.nodeId());
        this.selfRecord = new DirectorySelfRecord(config.nodeId(), selfId, self == null ? null : self.clientAddress(),
                stateMachine, () -> division, this::write, raftTimers);
        this.proposer = new Proposer(selfId, groupId, transport, RaftSettings.proposerLimits(config),
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
        OrphanedMemberGuard.scheduleOn(raftTimers, config.nodeId(), server, () -> division);
        server.start();
        division = server.getDivision(groupId);
        selfRecord.start();
    }

    /** What the events of the state machine mean for this node. */
    private final class StateMachineEvents implements NodeEvents {
        @Override
        public void engineFailed() {
            // A leader whose engine failed refuses every write: let a healthy voter lead instead.
            Thread.ofPlatform().daemon().name("strata-handover").start(() -> handOverLeadership(Duration.ofSeconds(5)));
        }

        @Override
        public void raftLogFailed() {
            stopAfterLogFailure();
        }

        @Override
        public void stateMachineClosed() {
            if (!closing) {
                LOG.error("node {}: the Raft server shut down by itself ({}); this node cannot serve any more", config.nodeId(),
                        stateMachine.logFailed() ? "its Raft log could not be written"
                                : "Ratis does so when this node finds it is not in the configuration, or when it leads and is removed");
                stoppedByItself.complete(null);
            }
        }

        @Override
        public String leaderClientAddress(RaftPeer leader) {
            return clientAddresses.ofLeader(leader);
        }
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
        return clients.send(c -> c.async().sendReadOnly(RaftReplies.message(query)));
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
        return Optional.of(new Member(id, peer == null ? "" : peer.getAddress(), clientAddresses.of(id), false));
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
        return status().notReady(config.readyMaxLag());
    }

    /** Whether {@link #notReady()} finds nothing. */
    public boolean ready() {
        return notReady().isEmpty();
    }

    /** The current configuration's voters and learners, in id order. */
    public List<Member> members() {
        return membership.members();
    }

    /** A member's gRPC address: from the replicated directory, else from this node's peer list, else "". */
    public String clientAddress(long id) {
        return clientAddresses.of(id);
    }

    // ------------------------------------------------------------------ membership (blocking, bounded by timeout)

    /**
     * Adds node {@code id} as a learner (a Ratis listener): records its client address in the
     * replicated directory, then adds it to the configuration. Start the node (with join) first.
     */
    public List<Member> addLearner(long id, String raftAddress, String clientAddress, Duration timeout)
            throws IOException, TimeoutException {
        return membership.addLearner(id, raftAddress, clientAddress, timeout);
    }

    /** Makes learner {@code id} a voter; see {@link Membership#promote}. */
    public List<Member> promote(long id) throws IOException {
        return membership.promote(id);
    }

    /** Removes voter or learner {@code id} from the configuration and the directory. */
    public List<Member> remove(long id, Duration timeout) throws IOException, TimeoutException {
        return membership.remove(id, timeout);
    }

    /** Hands leadership to voter {@code id} and waits until it leads. */
    public void transferLeadership(long id, Duration timeout) throws IOException {
        membership.transferLeadership(id, timeout);
    }

    /**
     * Takes a checkpoint on this node now (flush; the log may then be purged); returns the index it
     * covers, at least the index applied at the call.
     */
    public long checkpoint(Duration timeout) throws IOException, TimeoutException {
        return stateMachine.checkpointNow(timeout);
    }

    // ------------------------------------------------------------------ shutdown

    /**
     * If this node leads, hands leadership to another voter so the cluster does not wait an
     * election timeout for a new leader. Best effort: a failure is logged, not thrown.
     */
    public void handOverLeadership(Duration timeout) {
        membership.handOverLeadership(timeout);
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
        try {
            clients.close();
        } catch (IOException e) {
            failure = e;
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

}
