package dev.strata.server.config;

import java.util.List;

/** Every configuration key of the server, with its default. {@code strata-server --help} lists them all. */
public final class ConfigKeys {
    private ConfigKeys() {}

    public static final ConfigKey NODE_ID = new ConfigKey("strata.node.id", "--node-id", "1",
            "This node's id: a positive integer, unique in the cluster.");
    public static final ConfigKey CLUSTER_NAME = new ConfigKey("strata.cluster.name", "--cluster-name", "strata",
            "Name of the cluster; it names the Raft group, so every node of a cluster must use the same one.");
    public static final ConfigKey PEERS = new ConfigKey("strata.cluster.peers", "--peers", "",
            "The initial members as id=host:raftPort:clientPort,... (empty: this node alone). "
                    + "This node's entry sets its own Raft and client ports.");
    public static final ConfigKey JOIN = new ConfigKey("strata.cluster.join", "--join", "false",
            "Start as a new member of a running cluster: wait, with no data, to be added with Cluster/MemberAdd.");
    public static final ConfigKey STATEFULSET_SERVICE = new ConfigKey("strata.cluster.statefulset.service",
            "--statefulset-service", "",
            "In a Kubernetes StatefulSet: the headless Service's name. When set, the node id (pod ordinal + 1), the "
                    + "initial peers (the first initial-size pods, at their DNS names and this node's ports) and join "
                    + "(ordinal >= initial-size) are derived from the POD_NAME environment variable; "
                    + "node id and peers must then be left unset. Empty: off.");
    public static final ConfigKey STATEFULSET_INITIAL_SIZE = new ConfigKey("strata.cluster.statefulset.initial-size",
            "--statefulset-initial-size", "3",
            "With statefulset.service: how many pods formed the cluster (the first replica count, not the current one); "
                    + "pods at or above it start in join mode.");
    public static final ConfigKey STATEFULSET_HOST_TEMPLATE = new ConfigKey("strata.cluster.statefulset.host-template",
            "--statefulset-host-template", "{pod}.{service}.{namespace}.svc.cluster.local",
            "With statefulset.service: a peer's host from {pod}, {ordinal}, {service} and {namespace} "
                    + "(POD_NAMESPACE); change it for another cluster domain.");
    public static final ConfigKey DATA_DIR = new ConfigKey("strata.data.dir", "--data-dir", "data",
            "Directory of this node's data: the engine in engine/, the Raft log in raft/.");
    public static final ConfigKey BIND_ADDRESS = new ConfigKey("strata.server.bind-address", "--bind-address", "127.0.0.1",
            "Address the client, Raft and HTTP ports listen on (0.0.0.0 for every interface).");
    public static final ConfigKey CLIENT_PORT = new ConfigKey("strata.server.client-port", "--client-port", "7100",
            "Port of the gRPC API (KV, Cluster, health, reflection).");
    public static final ConfigKey RAFT_PORT = new ConfigKey("strata.server.raft-port", "--raft-port", "7101",
            "Port of the Raft transport between nodes.");
    public static final ConfigKey RAFT_LISTEN_PORT = new ConfigKey("strata.server.raft-listen-port", "--raft-listen-port", "",
            "Port the Raft transport listens on when it is not the one the other members dial (this node's entry in "
                    + "strata.cluster.peers): behind a port mapping or a proxy. Empty: the Raft port.");
    public static final ConfigKey HTTP_PORT = new ConfigKey("strata.server.http-port", "--http-port", "7102",
            "Port of /metrics (Prometheus), /healthz and /readyz.");
    public static final ConfigKey MAX_VALUE_SIZE = new ConfigKey("strata.server.max-value-size", "--max-value-size", "16MiB",
            "Largest value a put may carry; larger ones get INVALID_ARGUMENT.");
    public static final ConfigKey MAX_REQUEST_SIZE = new ConfigKey("strata.server.max-request-size", "--max-request-size", "24MiB",
            "Largest request (a Txn or Batch with all its values); at least max-value-size + 65 KiB. "
                    + "gRPC accepts messages 1 MiB larger so an oversized request gets this check's clear error.");
    public static final ConfigKey REQUEST_TIMEOUT = new ConfigKey("strata.server.request-timeout", "--request-timeout", "10s",
            "A request not done within this time (or the client's deadline, if sooner) ends with DEADLINE_EXCEEDED.");
    public static final ConfigKey SHUTDOWN_TIMEOUT = new ConfigKey("strata.server.shutdown-timeout", "--shutdown-timeout", "10s",
            "On SIGTERM, how long requests in flight may take to finish before they are cancelled.");
    public static final ConfigKey PAGE_MAX_ENTRIES = new ConfigKey("strata.server.range.max-page-entries", "--range-max-page-entries",
            "10000", "Most entries in one Range page (a smaller request limit wins).");
    public static final ConfigKey PAGE_MAX_BYTES = new ConfigKey("strata.server.range.max-page-bytes", "--range-max-page-bytes",
            "2MiB", "A Range page ends before this many bytes of entries (it always holds one); "
                    + "below gRPC clients' default 4 MiB message limit.");
    public static final ConfigKey READY_MAX_LAG = new ConfigKey("strata.server.ready-max-lag", "--ready-max-lag", "1000",
            "/readyz fails while this node's applied index is more than this many entries behind its commit index.");
    public static final ConfigKey ELECTION_TIMEOUT = new ConfigKey("strata.raft.election-timeout", "--election-timeout", "500ms",
            "A follower that hears no leader for a random time in [t, 2t] starts an election.");
    public static final ConfigKey RAFT_REQUEST_TIMEOUT = new ConfigKey("strata.raft.request-timeout", "--raft-request-timeout", "3s",
            "Timeout of one Raft RPC and of one attempt of a request forwarded to the leader.");
    public static final ConfigKey LEADER_LEASE = new ConfigKey("strata.raft.read.leader-lease", "--leader-lease", "false",
            "Serve linearizable reads on the leader from its lease, without a heartbeat round. "
                    + "Assumes clocks run at the same rate on every node (bounded drift).");
    public static final ConfigKey WRITE_BATCHES_IN_FLIGHT = new ConfigKey("strata.raft.write-batches-in-flight",
            "--write-batches-in-flight", "4",
            "Batches of writes (Raft log entries) a node has on their way through Raft at once at most. A lone write "
                    + "leaves at once; while a batch is in flight the writes that arrive wait and form the next one, which "
                    + "leaves beside it only when full (write-batch-max-writes writes or 256 KiB).");
    public static final ConfigKey WRITE_BATCH_MAX_WRITES = new ConfigKey("strata.raft.write-batch-max-writes",
            "--write-batch-max-writes", "1024",
            "Writes in one batch (one Raft log entry) at most; 1 gives every write an entry of its own.");
    public static final ConfigKey MAX_QUEUED_WRITE_BYTES = new ConfigKey("strata.raft.max-queued-write-bytes",
            "--max-queued-write-bytes", "64MiB",
            "Writes waiting on a node for their batch hold at most this many bytes; a write beyond it is refused with "
                    + "RESOURCE_EXHAUSTED (not applied) instead of filling the heap when Raft falls behind.");
    public static final ConfigKey SNAPSHOT_ENTRIES = new ConfigKey("strata.raft.snapshot.threshold-entries", "--snapshot-threshold-entries",
            "100000", "Take a checkpoint (flush the engine, purge the Raft log) after this many log entries.");
    public static final ConfigKey SNAPSHOT_BYTES = new ConfigKey("strata.raft.snapshot.threshold-bytes", "--snapshot-threshold-bytes",
            "256MiB", "Also take a checkpoint after this many bytes of log entries since the last one.");
    public static final ConfigKey LOG_SEGMENT_SIZE = new ConfigKey("strata.raft.log.segment-size", "--log-segment-size", "32MiB",
            "Size of one Raft log segment file; the log is purged a whole segment at a time, after each segment's worth "
                    + "that the engine's flushes made durable.");
    public static final ConfigKey WRITE_BUFFER_SIZE = new ConfigKey("strata.engine.write-buffer-size", "--write-buffer-size", "32MiB",
            "Engine memtable size before it is flushed to a table.");
    public static final ConfigKey BLOCK_CACHE_SIZE = new ConfigKey("strata.engine.block-cache-size", "--block-cache-size", "64MiB",
            "Engine cache of uncompressed data blocks (0 disables it).");
    public static final ConfigKey COMPACTION_THREADS = new ConfigKey("strata.engine.compaction-threads", "--compaction-threads", "1",
            "Engine background compaction threads.");
    public static final ConfigKey ENGINE_COMPRESSION = new ConfigKey("strata.engine.compression", "--compression", "default",
            "Engine compression policy: default (LZ4 for L0 and middle levels, zstd for the bottom level and value logs) "
                    + "or adaptive (the same, but values flushed while the engine is behind its writes get LZ4 and are "
                    + "recompressed with zstd once writes pause).");
    public static final ConfigKey DELTA_RETENTION = new ConfigKey("strata.engine.delta-retention", "--delta-retention", "0.25",
            "Keep flush outputs that compaction removed (the incremental chain a lagging follower catches up from) "
                    + "while they take at most this fraction of the live data; 0 keeps none.");

    // TLS, named as etcd names it. Plaintext when no certificate is set (the dev cluster).
    public static final ConfigKey CERT_FILE = new ConfigKey("strata.tls.cert-file", "--cert-file", "",
            "Certificate chain (PEM) the client port presents; with key-file it turns on TLS for clients. Its names "
                    + "(SANs) must match the address clients dial. Re-read when the file changes.");
    public static final ConfigKey KEY_FILE = new ConfigKey("strata.tls.key-file", "--key-file", "",
            "Private key (PEM, PKCS#8) of cert-file.");
    public static final ConfigKey TRUSTED_CA_FILE = new ConfigKey("strata.tls.trusted-ca-file", "--trusted-ca-file", "",
            "CA certificates (PEM) client certificates must chain to when client-cert-auth is on; nodes also verify "
                    + "each other's client ports with it when fetching checkpoints (empty: the JVM's CAs).");
    public static final ConfigKey CLIENT_CERT_AUTH = new ConfigKey("strata.tls.client-cert-auth", "--client-cert-auth",
            "false", "Mutual TLS on the client port: refuse clients without a certificate signed by trusted-ca-file. "
                    + "Nodes present cert-file to each other's client ports, so it must also be valid for client auth.");
    public static final ConfigKey PEER_CERT_FILE = new ConfigKey("strata.tls.peer-cert-file", "--peer-cert-file", "",
            "Certificate chain (PEM) of the Raft port, presented to peers as server and as client; with "
                    + "peer-key-file and peer-trusted-ca-file it turns on mutual TLS between nodes. Re-read when it changes.");
    public static final ConfigKey PEER_KEY_FILE = new ConfigKey("strata.tls.peer-key-file", "--peer-key-file", "",
            "Private key (PEM, PKCS#8) of peer-cert-file.");
    public static final ConfigKey PEER_TRUSTED_CA_FILE = new ConfigKey("strata.tls.peer-trusted-ca-file",
            "--peer-trusted-ca-file", "", "CA certificates (PEM) every peer's certificate must chain to; a node "
                    + "whose certificate does not is refused and cannot join.");

    /** Every key, in the order {@code --help} and the start-up log show them. */
    public static final List<ConfigKey> ALL = List.of(NODE_ID, CLUSTER_NAME, PEERS, JOIN, STATEFULSET_SERVICE,
            STATEFULSET_INITIAL_SIZE, STATEFULSET_HOST_TEMPLATE, DATA_DIR, BIND_ADDRESS, CLIENT_PORT,
            RAFT_PORT, RAFT_LISTEN_PORT, HTTP_PORT, MAX_VALUE_SIZE, MAX_REQUEST_SIZE, REQUEST_TIMEOUT, SHUTDOWN_TIMEOUT, PAGE_MAX_ENTRIES,
            PAGE_MAX_BYTES, READY_MAX_LAG, ELECTION_TIMEOUT, RAFT_REQUEST_TIMEOUT, LEADER_LEASE, WRITE_BATCHES_IN_FLIGHT, WRITE_BATCH_MAX_WRITES,
            MAX_QUEUED_WRITE_BYTES, SNAPSHOT_ENTRIES,
            SNAPSHOT_BYTES, LOG_SEGMENT_SIZE, WRITE_BUFFER_SIZE, BLOCK_CACHE_SIZE, COMPACTION_THREADS, ENGINE_COMPRESSION,
            DELTA_RETENTION,
            CERT_FILE, KEY_FILE, TRUSTED_CA_FILE, CLIENT_CERT_AUTH, PEER_CERT_FILE, PEER_KEY_FILE, PEER_TRUSTED_CA_FILE);

    /** The key with this name, or null. */
    public static ConfigKey byName(String name) {
        for (ConfigKey k : ALL) {
            if (k.name().equals(name)) {
                return k;
            }
        }
        return null;
    }
}
