package dev.strata.client;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A client of a Strata cluster:
 * <pre>{@code
 * try (StrataClient client = StrataClient.builder().endpoints("127.0.0.1:7100", "127.0.0.1:7110").build()) {
 *     client.put("greeting", "hello");
 *     String v = client.get("greeting").map(KeyValue::valueUtf8).orElse(null);
 * }
 * }</pre>
 * Every call goes to one node, any node serving any call; when that node fails the client moves
 * to the next (or to the leader an error names) and avoids the failed one for a while. Each
 * operation has a deadline (5 s by default) that covers its retries. Reads are retried on
 * another node after failures that do not depend on the request; writes (put, delete, txn,
 * batch, membership) only when they cannot have reached a node, and otherwise fail with
 * {@link OutcomeUnknownException}, since retrying a write that may have been applied could
 * apply it twice. Every call has a {@link #async() CompletableFuture form}. Thread-safe; share
 * one client. Calls fail with {@link StrataException}.
 */
public final class StrataClient implements AutoCloseable {
    private final Endpoints endpoints;
    private final ScheduledExecutorService timer;
    private final AsyncStrataClient async;

    private StrataClient(Builder b) {
        this.endpoints = new Endpoints(b.endpoints, b.credentials, b.coolDown.toMillis(), b.writesToLeader, b.timeout.toMillis(),
                b.nativeTransport);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "strata-client-retry");
            t.setDaemon(true);
            return t;
        });
        this.async = new AsyncStrataClient(new Calls(endpoints, timer, b.timeout, b.maxAttempts, b.initialBackoff,
                b.maxBackoff));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The same calls, returning futures. */
    public AsyncStrataClient async() {
        return async;
    }

    /** Sets {@code key} to {@code value}. */
    public PutResult put(byte[] key, byte[] value) {
        return AsyncStrataClient.await(async.put(key, value));
    }

    public PutResult put(String key, String value) {
        return put(KeyRange.utf8(key), KeyRange.utf8(value));
    }

    /** Sets {@code key} and returns, in the result, the key as it was before (null if absent). */
    public PutResult putAndGetPrevious(byte[] key, byte[] value) {
        return AsyncStrataClient.await(async.put(key, value, true));
    }

    /** The key (linearizable), or empty when absent. */
    public Optional<KeyValue> get(byte[] key) {
        return get(key, Consistency.LINEARIZABLE);
    }

    public Optional<KeyValue> get(String key) {
        return get(KeyRange.utf8(key));
    }

    public Optional<KeyValue> get(byte[] key, Consistency consistency) {
        return AsyncStrataClient.await(async.get(key, consistency));
    }

    /** Deletes one key; returns how many keys were deleted (0 or 1) and the revision. */
    public DeleteResult delete(byte[] key) {
        return delete(KeyRange.key(key));
    }

    public DeleteResult delete(String key) {
        return delete(KeyRange.key(key));
    }

    /** Deletes every key {@code keys} selects ({@link KeyRange#between}, {@link KeyRange#prefix}, ...). */
    public DeleteResult delete(KeyRange keys) {
        return AsyncStrataClient.await(async.delete(keys, false));
    }

    /**
     * The keys {@code keys} selects, in unsigned byte order, fetched a page at a time as the
     * stream is consumed (memory holds one page; nothing stays open between pages, so a stream
     * left unconsumed holds no resources).
     * Pages are read separately, so the stream is not one snapshot: a key written between two
     * pages appears only if it sorts after the pages already read.
     */
    public Stream<KeyValue> range(KeyRange keys, RangeOptions options) {
        Iterator<KeyValue> pages = new RangePages(async, keys, options);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(pages, Spliterator.ORDERED | Spliterator.NONNULL),
                false);
    }

    public Stream<KeyValue> range(KeyRange keys) {
        return range(keys, RangeOptions.defaults());
    }

    /** One page of at most {@code limit} keys (0: the server's page limit), and whether more follow. */
    public RangeResult rangePage(KeyRange keys, int limit) {
        return AsyncStrataClient.await(async.rangePage(keys, limit, Consistency.LINEARIZABLE));
    }

    /** How many keys {@code keys} selects (linearizable). */
    public long count(KeyRange keys) {
        return count(keys, Consistency.LINEARIZABLE);
    }

    /** How many keys {@code keys} selects, at the given consistency. */
    public long count(KeyRange keys, Consistency consistency) {
        return AsyncStrataClient.await(async.count(keys, consistency));
    }

    /** A transaction to build and {@link Txn#commit() commit}. */
    public Txn txn() {
        return async.txn();
    }

    /** A batch of puts and deletes to build and {@link Batch#commit() commit}. */
    public Batch batch() {
        return async.batch();
    }

    /** The status of the node the client is using. */
    public NodeStatus status() {
        return AsyncStrataClient.await(async.status());
    }

    public List<Member> members() {
        return AsyncStrataClient.await(async.members());
    }

    public List<Member> addMember(long id, String raftAddress, String clientAddress) {
        return AsyncStrataClient.await(async.addMember(id, raftAddress, clientAddress));
    }

    public List<Member> promoteMember(long id) {
        return AsyncStrataClient.await(async.promoteMember(id));
    }

    public List<Member> removeMember(long id) {
        return AsyncStrataClient.await(async.removeMember(id));
    }

    public long transferLeader(long id) {
        return AsyncStrataClient.await(async.transferLeader(id));
    }

    /** Has the node the client is using take a checkpoint now; see {@link AsyncStrataClient#checkpoint()}. */
    public CheckpointInfo checkpoint() {
        return AsyncStrataClient.await(async.checkpoint());
    }

    @Override
    public void close() {
        timer.shutdownNow();
        endpoints.close();
    }

    /** Settings of a {@link StrataClient}; every one has a default but the endpoints. */
    public static final class Builder {
        private List<String> endpoints = List.of();
        private Duration timeout = Duration.ofSeconds(5);
        private int maxAttempts = 8;
        private Duration initialBackoff = Duration.ofMillis(50);
        private Duration maxBackoff = Duration.ofSeconds(1);
        private Duration coolDown = Duration.ofSeconds(5);
        private ChannelCredentials credentials = InsecureChannelCredentials.create();
        private boolean writesToLeader = true;
        private boolean nativeTransport = true;

        private Builder() {}

        /** The nodes' gRPC addresses, {@code host:port}; the first is tried first. */
        public Builder endpoints(String... addresses) {
            return endpoints(List.of(addresses));
        }

        public Builder endpoints(List<String> addresses) {
            if (addresses.isEmpty()) {
                throw new IllegalArgumentException("at least one endpoint is needed");
            }
            this.endpoints = List.copyOf(addresses);
            return this;
        }

        /** How long one operation may take, retries included (default 5 s). */
        public Builder timeout(Duration d) {
            this.timeout = positive(d, "timeout");
            return this;
        }

        /**
         * Attempts per operation (default 8), with full-jitter exponential backoff between them
         * from {@code initial} up to {@code max} (default 50 ms to 1 s).
         */
        public Builder retries(int maxAttempts, Duration initial, Duration max) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1");
            }
            this.maxAttempts = maxAttempts;
            this.initialBackoff = positive(initial, "initial backoff");
            this.maxBackoff = positive(max, "max backoff");
            return this;
        }

        /**
         * Whether writes go to the leader once the client knows it (default true): any node takes
         * a write, but a follower forwards it to the leader, which costs a hop. The client learns
         * the leader from a status call before its first write and whenever a response shows a
         * newer Raft term. Off, writes go to the node reads go to.
         */
        public Builder writesToLeader(boolean on) {
            this.writesToLeader = on;
            return this;
        }

        /**
         * Whether the client's network threads use Linux's native epoll where Netty offers it
         * (default true, as gRPC's own default does) or the JDK's sockets (NIO) everywhere. NIO
         * starts faster, with no native library to load (about 0.1 s on a small machine), and
         * suits short-lived clients such as the command line's one-shot commands.
         */
        public Builder nativeTransport(boolean on) {
            this.nativeTransport = on;
            return this;
        }

        /** How long a node that failed is avoided while others answer (default 5 s). */
        public Builder coolDown(Duration d) {
            this.coolDown = positive(d, "cool-down");
            return this;
        }

        /**
         * Connects over TLS, trusting the certificate authorities in {@code caCertificates} (PEM),
         * or the JVM's default trust store when it is null. Plaintext is the default.
         *
         * @throws IllegalArgumentException when the file cannot be read as PEM certificates
         */
        public Builder tls(Path caCertificates) {
            return tls(caCertificates, null, null);
        }

        /**
         * Connects over TLS and presents a client certificate, for clusters that require mutual
         * TLS: {@code certificateChain} and its {@code privateKey} (PKCS#8), both PEM.
         * {@code caCertificates} as for {@link #tls(Path)}.
         *
         * @throws IllegalArgumentException when a file cannot be read, or only one of the
         *                                  certificate and the key is given
         */
        public Builder tls(Path caCertificates, Path certificateChain, Path privateKey) {
            this.credentials = TlsCredentials.of(caCertificates, certificateChain, privateKey);
            return this;
        }

        public StrataClient build() {
            if (endpoints.isEmpty()) {
                throw new IllegalArgumentException("no endpoints: call endpoints(\"host:port\", ...)");
            }
            return new StrataClient(this);
        }

        private static Duration positive(Duration d, String what) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive, got " + d);
            }
            return d;
        }
    }
}
