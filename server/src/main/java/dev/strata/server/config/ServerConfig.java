package dev.strata.server.config;

import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.server.kv.Limits;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.strata.server.config.ConfigKeys.*;

/**
 * The resolved, validated configuration of one node; see {@link ConfigKeys} for what each
 * value means and its default. Build it with {@link #resolve} (tests) or {@link ConfigLoader}
 * (the server's main, which adds a file, the environment and flags).
 */
public record ServerConfig(
        long nodeId,
        String clusterName,
        List<PeerSpec> peers,
        boolean join,
        Path dataDir,
        String bindAddress,
        int clientPort,
        int raftPort,
        int raftListenPort,
        int httpPort,
        long maxValueSize,
        long maxRequestSize,
        Duration requestTimeout,
        Duration shutdownTimeout,
        int pageMaxEntries,
        long pageMaxBytes,
        long readyMaxLag,
        Duration electionTimeout,
        Duration raftRequestTimeout,
        boolean leaderLease,
        int writeBatchesInFlight,
        int writeBatchMaxWrites,
        long maxQueuedWriteBytes,
        long snapshotThresholdEntries,
        long snapshotThresholdBytes,
        long logSegmentSize,
        long writeBufferSize,
        long blockCacheSize,
        int compactionThreads,
        CompressionPolicy engineCompression,
        double deltaRetention,
        TlsConfig tls) {

    /** Room for the key (64 KiB) and the message framing beside the largest value. */
    private static final long REQUEST_OVERHEAD = 65 * 1024;

    public ServerConfig {
        peers = List.copyOf(peers);
        tls = tls == null ? TlsConfig.PLAINTEXT : tls;
    }

    /**
     * Resolves a configuration from the values given by name ({@code strata.server.client-port}
     * -> {@code "7110"}); keys not given take their defaults.
     *
     * @throws IllegalArgumentException for an unknown key or a bad value, naming the key
     */
    public static ServerConfig resolve(Map<String, String> given) {
        for (String name : given.keySet()) {
            if (ConfigKeys.byName(name) == null) {
                throw new IllegalArgumentException("unknown configuration key \"" + name + "\"; strata-server --help lists them");
            }
        }
        Map<String, String> v = new HashMap<>();
        for (ConfigKey k : ConfigKeys.ALL) {
            v.put(k.name(), given.getOrDefault(k.name(), k.defaultValue()));
        }
        long nodeId = Values.positiveLong(NODE_ID.name(), v.get(NODE_ID.name()));
        List<PeerSpec> peers = PeerSpec.parseList(v.get(PEERS.name()));
        boolean join = Values.bool(JOIN.name(), v.get(JOIN.name()));
        int raftPort = Values.port(RAFT_PORT.name(), v.get(RAFT_PORT.name()));
        int clientPort = Values.port(CLIENT_PORT.name(), v.get(CLIENT_PORT.name()));
        PeerSpec self = peers.stream().filter(p -> p.id() == nodeId).findFirst().orElse(null);
        if (self != null) {
            // This node's entry in the peer list is the address the others use: it must be where we listen.
            raftPort = agree(RAFT_PORT, given, raftPort, self.raftPort(), self);
            clientPort = agree(CLIENT_PORT, given, clientPort, self.clientPort(), self);
        } else if (!peers.isEmpty() && !join) {
            throw new IllegalArgumentException(PEERS.name() + " does not list this node (" + NODE_ID.name() + " = " + nodeId
                    + "); list it, or set " + JOIN.name() + " = true to join a running cluster");
        }
        String listen = v.get(RAFT_LISTEN_PORT.name()).trim();
        int raftListenPort = listen.isEmpty() ? raftPort : Values.port(RAFT_LISTEN_PORT.name(), listen);
        long maxValue = Values.bytes(MAX_VALUE_SIZE.name(), v.get(MAX_VALUE_SIZE.name()));
        long maxRequest = Values.bytes(MAX_REQUEST_SIZE.name(), v.get(MAX_REQUEST_SIZE.name()));
        if (maxValue < 1 || maxValue > (1L << 30)) {
            throw new IllegalArgumentException(MAX_VALUE_SIZE.name() + " must be in [1 B, 1 GiB], was " + maxValue);
        }
        if (maxRequest < maxValue + REQUEST_OVERHEAD || maxRequest > (1L << 30)) {
            throw new IllegalArgumentException(MAX_REQUEST_SIZE.name() + " must be at least " + MAX_VALUE_SIZE.name()
                    + " + 65 KiB (" + (maxValue + REQUEST_OVERHEAD) + ") and at most 1 GiB, was " + maxRequest);
        }
        Duration election = Values.duration(ELECTION_TIMEOUT.name(), v.get(ELECTION_TIMEOUT.name()));
        if (election.toMillis() < 100) {
            throw new IllegalArgumentException(ELECTION_TIMEOUT.name() + " must be at least 100ms, was " + election.toMillis() + "ms");
        }
        long segmentSize = Values.bytes(LOG_SEGMENT_SIZE.name(), v.get(LOG_SEGMENT_SIZE.name()));
        if (segmentSize < 16 * 1024) {
            throw new IllegalArgumentException(LOG_SEGMENT_SIZE.name() + " must be at least 16KiB, was " + segmentSize);
        }
        if (Values.bytes(MAX_QUEUED_WRITE_BYTES.name(), v.get(MAX_QUEUED_WRITE_BYTES.name())) < 1) {
            throw new IllegalArgumentException(MAX_QUEUED_WRITE_BYTES.name() + " must be at least 1 byte");
        }
        String cluster = v.get(CLUSTER_NAME.name()).trim();
        if (cluster.isEmpty()) {
            throw new IllegalArgumentException(CLUSTER_NAME.name() + " must not be empty");
        }
        return new ServerConfig(
                nodeId,
                cluster,
                peers,
                join,
                Path.of(v.get(DATA_DIR.name())),
                v.get(BIND_ADDRESS.name()).trim(),
                clientPort,
                raftPort,
                raftListenPort,
                Values.port(HTTP_PORT.name(), v.get(HTTP_PORT.name())),
                maxValue,
                maxRequest,
                Values.duration(REQUEST_TIMEOUT.name(), v.get(REQUEST_TIMEOUT.name())),
                Values.duration(SHUTDOWN_TIMEOUT.name(), v.get(SHUTDOWN_TIMEOUT.name())),
                Values.intValue(PAGE_MAX_ENTRIES.name(), v.get(PAGE_MAX_ENTRIES.name()), 1, 1_000_000),
                Values.bytes(PAGE_MAX_BYTES.name(), v.get(PAGE_MAX_BYTES.name())),
                Values.longValue(READY_MAX_LAG.name(), v.get(READY_MAX_LAG.name())),
                election,
                Values.duration(RAFT_REQUEST_TIMEOUT.name(), v.get(RAFT_REQUEST_TIMEOUT.name())),
                Values.bool(LEADER_LEASE.name(), v.get(LEADER_LEASE.name())),
                Values.intValue(WRITE_BATCHES_IN_FLIGHT.name(), v.get(WRITE_BATCHES_IN_FLIGHT.name()), 1, 100_000),
                Values.intValue(WRITE_BATCH_MAX_WRITES.name(), v.get(WRITE_BATCH_MAX_WRITES.name()), 1, 100_000),
                Values.bytes(MAX_QUEUED_WRITE_BYTES.name(), v.get(MAX_QUEUED_WRITE_BYTES.name())),
                Values.positiveLong(SNAPSHOT_ENTRIES.name(), v.get(SNAPSHOT_ENTRIES.name())),
                Values.bytes(SNAPSHOT_BYTES.name(), v.get(SNAPSHOT_BYTES.name())),
                segmentSize,
                Values.bytes(WRITE_BUFFER_SIZE.name(), v.get(WRITE_BUFFER_SIZE.name())),
                Values.bytes(BLOCK_CACHE_SIZE.name(), v.get(BLOCK_CACHE_SIZE.name())),
                Values.intValue(COMPACTION_THREADS.name(), v.get(COMPACTION_THREADS.name()), 1, 64),
                compressionPolicy(ENGINE_COMPRESSION.name(), v.get(ENGINE_COMPRESSION.name())),
                Values.fraction(DELTA_RETENTION.name(), v.get(DELTA_RETENTION.name()), 0, 10),
                TlsConfig.resolve(v));
    }

    /**
     * The engine's compression policy a setting names: {@code default} or {@code adaptive}; an
     * {@link IllegalArgumentException} naming {@code what} for anything else.
     */
    public static CompressionPolicy compressionPolicy(String what, String value) {
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "default" -> CompressionPolicy.defaults();
            case "adaptive" -> CompressionPolicy.adaptive();
            default -> throw new IllegalArgumentException(what + " must be default or adaptive, was '" + value + "'");
        };
    }

    private static int agree(ConfigKey key, Map<String, String> given, int configured, int inPeers, PeerSpec self) {
        if (given.containsKey(key.name()) && configured != inPeers) {
            throw new IllegalArgumentException(key.name() + " is " + configured + " but this node's entry in "
                    + PEERS.name() + " (" + self + ") says " + inPeers + "; make them agree or drop one");
        }
        return inPeers;
    }

    /** How the other members reach this node: its peer entry, or the bind address and ports when it has none. */
    public PeerSpec self() {
        return peers.stream().filter(p -> p.id() == nodeId).findFirst()
                .orElseGet(() -> new PeerSpec(nodeId, bindAddress, raftPort, clientPort));
    }

    public Limits limits() {
        return new Limits(maxValueSize, maxRequestSize, pageMaxEntries, pageMaxBytes);
    }

    /** The engine's data directory. */
    public Path engineDir() {
        return dataDir.resolve("engine");
    }

    /** The Raft log's directory. */
    public Path raftDir() {
        return dataDir.resolve("raft");
    }
}
