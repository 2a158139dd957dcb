package dev.strata.it.workload;

import com.google.protobuf.ByteString;
import dev.strata.client.KeyRange;
import dev.strata.client.KeyValue;
import dev.strata.client.Op;
import dev.strata.client.OutcomeUnknownException;
import dev.strata.client.PutResult;
import dev.strata.client.RangeResult;
import dev.strata.client.StrataClient;
import dev.strata.client.StrataException;
import dev.strata.client.TxnResult;
import dev.strata.it.history.OpKind;
import dev.strata.it.history.ReadConsistency;
import dev.strata.proto.v1.Consistency;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.testkit.cluster.ProcessCluster;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Concurrent clients doing gets (linearizable through the SDK, serializable straight to one
 * node), puts (some large enough for the value log), deletes, ranges and compare-and-set txns
 * over a small set of hot keys, so operations conflict often; plus puts of unique "ledger" keys,
 * never overwritten, whose presence at the end shows no acknowledged write was lost. Every
 * operation goes to a {@link Recorder}.
 */
public final class Workload implements AutoCloseable {
    /** Over 64 KiB, so the node stores it in the value log rather than inline. */
    static final int LARGE_VALUE = 70 * 1024;
    private static final Duration OP_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration SERIALIZABLE_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final ProcessCluster cluster;
    private final String prefix;
    private final List<String> hotKeys = new ArrayList<>();
    private final int clients;
    private final long seed;
    private final Recorder recorder;
    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong operations = new AtomicLong();
    private volatile boolean running;
    /** Clients that ended on an exception no operation expects, or were stuck at the stop, each with why. */
    private final Queue<String> deadClients = new ConcurrentLinkedQueue<>();

    /**
     * @param prefix every key this workload touches starts with it (one prefix per run keeps runs apart)
     */
    public Workload(ProcessCluster cluster, String prefix, int clients, int hotKeyCount, long seed, Recorder recorder) {
        this.cluster = cluster;
        this.prefix = prefix;
        this.clients = clients;
        this.seed = seed;
        this.recorder = recorder;
        for (int i = 0; i < hotKeyCount; i++) {
            hotKeys.add(prefix + "hot/" + i);
        }
    }

    public List<String> hotKeys() {
        return List.copyOf(hotKeys);
    }

    /** Where the ledger keys live: {@code prefix + "ledger/"}. */
    public String ledgerPrefix() {
        return prefix + "ledger/";
    }

    public long operations() {
        return operations.get();
    }

    public void start() {
        running = true;
        for (int c = 1; c <= clients; c++) {
            int client = c;
            threads.add(Thread.ofPlatform().name("workload-client-" + c).start(() -> runClient(client)));
        }
    }

    /**
     * Stops the clients after their current operation and waits for them. A client still busy
     * after 30 s (ten times an operation's timeout) is stuck: it is recorded with where it was,
     * as a dead client, and interrupted, so the run fails with the evidence instead of hanging.
     */
    public void stop() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(STOP_WAIT);
            if (t.isAlive()) {
                StringBuilder where = new StringBuilder();
                for (StackTraceElement e : t.getStackTrace()) {
                    where.append("\n\tat ").append(e);
                }
                deadClients.add(t.getName() + " did not finish its operation within " + STOP_WAIT.toSeconds()
                        + " s; it was" + where);
                t.interrupt();
            }
        }
    }

    private void runClient(int client) {
        Random random = new Random(seed * 31 + client);
        Map<String, String> lastSeen = new HashMap<>();
        try (StrataClient sdk = StrataClient.builder().endpoints(cluster.clientAddresses()).timeout(OP_TIMEOUT)
                .coolDown(Duration.ofSeconds(1)).build()) {
            long seq = 0;
            while (running) {
                String key = hotKeys.get(random.nextInt(hotKeys.size()));
                String value = "c" + client + "-" + (++seq);
                double dice = random.nextDouble();
                if (dice < 0.18) {
                    get(sdk, client, key, lastSeen);
                } else if (dice < 0.33) {
                    getSerializable(client, key, random);
                } else if (dice < 0.55) {
                    put(sdk, client, key, value, lastSeen);
                } else if (dice < 0.60) {
                    put(sdk, client, key, Payloads.largeName(value, LARGE_VALUE), lastSeen);
                } else if (dice < 0.66) {
                    delete(sdk, client, key, lastSeen);
                } else if (dice < 0.84) {
                    compareAndSet(sdk, client, key, lastSeen.get(key), value, lastSeen);
                } else if (dice < 0.90) {
                    range(sdk, client, random);
                } else {
                    put(sdk, client, ledgerPrefix() + value, value, new HashMap<>());
                }
                operations.incrementAndGet();
                Thread.sleep(random.nextInt(10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            // Every outcome a cluster can give is recorded by the operation itself; anything else
            // is a bug in the workload or the SDK, and a run that lost a client tests less than it claims.
            deadClients.add("client " + client + " stopped on " + e);
        }
    }

    /** The clients that stopped on an exception no operation expects; a run with any must fail. */
    public List<String> deadClients() {
        return List.copyOf(deadClients);
    }

    private void get(StrataClient sdk, int client, String key, Map<String, String> lastSeen) {
        Recorder.Call call = recorder.invoke(client, OpKind.GET, key, null, null, null, ReadConsistency.LINEARIZABLE, 0);
        try {
            Optional<KeyValue> kv = sdk.get(key.getBytes(), dev.strata.client.Consistency.LINEARIZABLE);
            String seen = kv.map(v -> Payloads.name(v.value())).orElse(null);
            call.read(seen, 0, kv.map(KeyValue::modRevision).orElse(0L));
            remember(lastSeen, key, seen);
        } catch (StrataException e) {
            call.failed(describe(e));
        }
    }

    private void put(StrataClient sdk, int client, String key, String value, Map<String, String> lastSeen) {
        Recorder.Call call = recorder.invoke(client, OpKind.PUT, key, null, value, null, null, 0);
        try {
            PutResult r = sdk.put(key.getBytes(), Payloads.bytes(value));
            call.written(r.revision());
            remember(lastSeen, key, value);
        } catch (OutcomeUnknownException e) {
            call.unknown(describe(e));
            lastSeen.remove(key);
        } catch (StrataException e) {
            call.failed(describe(e));
        }
    }

    private void delete(StrataClient sdk, int client, String key, Map<String, String> lastSeen) {
        Recorder.Call call = recorder.invoke(client, OpKind.DELETE, key, null, null, null, null, 0);
        try {
            call.written(sdk.delete(key.getBytes()).revision());
            remember(lastSeen, key, null);
        } catch (OutcomeUnknownException e) {
            call.unknown(describe(e));
            lastSeen.remove(key);
        } catch (StrataException e) {
            call.failed(describe(e));
        }
    }

    /** Puts {@code value} if the key holds {@code expected} (absent when null): the optimistic-concurrency idiom. */
    private void compareAndSet(StrataClient sdk, int client, String key, String expected, String value,
                               Map<String, String> lastSeen) {
        Recorder.Call call = recorder.invoke(client, OpKind.CAS, key, null, value, expected, null, 0);
        try {
            var txn = sdk.txn();
            txn = expected == null ? txn.ifAbsent(key) : txn.ifValue(key.getBytes()).equalTo(Payloads.bytes(expected));
            TxnResult r = txn.then(Op.put(key.getBytes(), Payloads.bytes(value))).commit();
            call.swapped(r.succeeded(), r.revision());
            if (r.succeeded()) {
                remember(lastSeen, key, value);
            } else {
                lastSeen.remove(key);
            }
        } catch (OutcomeUnknownException e) {
            call.unknown(describe(e));
            lastSeen.remove(key);
        } catch (StrataException e) {
            call.failed(describe(e));
        }
    }

    private void range(StrataClient sdk, int client, Random random) {
        String from = prefix + "hot/";
        String to = prefix + "hot0"; // '0' follows '/': the end of the hot keys
        if (random.nextInt(3) == 0) {
            rangeSerializable(client, from, to, random);
            return;
        }
        Recorder.Call call = recorder.invoke(client, OpKind.RANGE, from, to, null, null, ReadConsistency.LINEARIZABLE, 0);
        try {
            RangeResult page = sdk.rangePage(KeyRange.between(from, to), 0);
            if (page.more()) {
                throw new IllegalStateException("a range over " + hotKeys.size() + " hot keys did not fit one page");
            }
            Map<String, String> seen = new TreeMap<>();
            for (KeyValue kv : page.kvs()) {
                seen.put(kv.keyUtf8(), Payloads.name(kv.value()));
            }
            call.ranged(seen, page.revision());
        } catch (StrataException e) {
            call.failed(describe(e));
        }
    }

    private void getSerializable(int client, String key, Random random) {
        long node = pickNode(random);
        Recorder.Call call = recorder.invoke(client, OpKind.GET, key, null, null, null, ReadConsistency.SERIALIZABLE, processOf(node));
        try {
            GetResponse r = stub(node).get(GetRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                    .setConsistency(Consistency.SERIALIZABLE).build());
            String seen = r.hasKv() ? Payloads.name(r.getKv().getValue().toByteArray()) : null;
            call.read(seen, r.getHeader().getRevision(), r.hasKv() ? r.getKv().getModRevision() : 0);
        } catch (RuntimeException e) {
            call.failed(Status.fromThrowable(e).toString());
        }
    }

    private void rangeSerializable(int client, String from, String to, Random random) {
        long node = pickNode(random);
        Recorder.Call call = recorder.invoke(client, OpKind.RANGE, from, to, null, null, ReadConsistency.SERIALIZABLE, processOf(node));
        try {
            RangeResponse r = stub(node).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(from))
                    .setRangeEnd(ByteString.copyFromUtf8(to)).setConsistency(Consistency.SERIALIZABLE).build());
            Map<String, String> seen = new TreeMap<>();
            r.getKvsList().forEach(kv -> seen.put(kv.getKey().toStringUtf8(), Payloads.name(kv.getValue().toByteArray())));
            call.ranged(seen, r.getHeader().getRevision());
        } catch (RuntimeException e) {
            call.failed(Status.fromThrowable(e).toString());
        }
    }

    /**
     * Which node process a serializable read went to: its pid. Reads are monotonic while a
     * process lives; a restarted node replays its log, and a replaced one starts empty, so each
     * may serve an older state until it has caught up (see docs/fault-injection.md).
     */
    private long processOf(long node) {
        return cluster.process(node).pid();
    }

    /** A member with a process (a read sent to a stopped node just fails, as it would for a client). */
    private long pickNode(Random random) {
        List<Long> ids = cluster.memberIds().stream().filter(id -> cluster.process(id) != null).toList();
        return ids.get(random.nextInt(ids.size()));
    }

    private KVGrpc.KVBlockingStub stub(long node) {
        String address = cluster.node(node).clientAddress();
        ManagedChannel ch = channels.computeIfAbsent(address, a -> Grpc.newChannelBuilder(a, InsecureChannelCredentials.create())
                .maxInboundMessageSize(Integer.MAX_VALUE).build());
        return KVGrpc.newBlockingStub(ch).withDeadlineAfter(SERIALIZABLE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** What this client believes a key holds, for its next compare-and-set. */
    private static void remember(Map<String, String> lastSeen, String key, String value) {
        if (value == null) {
            lastSeen.remove(key);
        } else {
            lastSeen.put(key, value);
        }
    }

    private static String describe(StrataException e) {
        return e.code() + ": " + e.getMessage();
    }

    @Override
    public void close() {
        running = false;
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
