package dev.strata.cli.bench;

import com.google.protobuf.ByteString;
import dev.strata.cli.etcd.pb.CompactionRequest;
import dev.strata.cli.etcd.pb.KVGrpc;
import dev.strata.cli.etcd.pb.MaintenanceGrpc;
import dev.strata.cli.etcd.pb.PutRequest;
import dev.strata.cli.etcd.pb.RangeRequest;
import dev.strata.cli.etcd.pb.RequestOp;
import dev.strata.cli.etcd.pb.StatusRequest;
import dev.strata.cli.etcd.pb.TxnRequest;
import dev.strata.client.Consistency;
import dev.strata.client.OutcomeUnknownException;
import dev.strata.client.StrataException;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * etcd through its own gRPC KV API (the subset of etcd's protos in {@code src/main/proto/etcd}),
 * plaintext, requests spread round-robin over the endpoints as etcd's Go client does (followers
 * forward writes to their leader). A get is a Range of one key, {@code serializable} for a
 * serializable read; a scan a Range with {@code range_end} and {@code limit}; the load's batches
 * are transactions of puts with no compares, at most {@value #MAX_TXN_OPS} of them, etcd's default
 * {@code --max-txn-ops}. Before a measured phase the history is compacted to the current
 * revision ({@link #settle}).
 */
public final class EtcdTarget implements Target {
    static final int MAX_TXN_OPS = 128;
    /** A physical compaction of a large history takes a while. */
    private static final Duration COMPACT_TIMEOUT = Duration.ofMinutes(2);

    private final List<String> endpoints;
    private final List<ManagedChannel> channels;
    private final List<KVGrpc.KVBlockingStub> stubs;
    private final List<MaintenanceGrpc.MaintenanceBlockingStub> maintenance;
    private final Duration timeout;
    private final AtomicInteger next = new AtomicInteger();

    /** @param timeout each call's deadline */
    public EtcdTarget(List<String> endpoints, Duration timeout) {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("no etcd endpoints");
        }
        this.endpoints = List.copyOf(endpoints);
        this.channels = endpoints.stream()
                .map(e -> Grpc.newChannelBuilder(e, InsecureChannelCredentials.create())
                        .maxInboundMessageSize(Integer.MAX_VALUE) // a scan of large values
                        .build())
                .toList();
        this.stubs = channels.stream().map(KVGrpc::newBlockingStub).toList();
        this.maintenance = channels.stream().map(MaintenanceGrpc::newBlockingStub).toList();
        this.timeout = timeout;
    }

    @Override
    public String system() {
        return "etcd";
    }

    @Override
    public List<String> endpoints() {
        return endpoints;
    }

    @Override
    public void checkReachable() {
        StrataException last = null;
        for (int i = 0; i < stubs.size(); i++) {
            try {
                call(i, s -> s.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("\0")).build()), false);
                return;
            } catch (StrataException e) {
                last = e;
            }
        }
        throw last;
    }

    @Override
    public boolean get(byte[] key, Consistency consistency) {
        RangeRequest request = RangeRequest.newBuilder().setKey(ByteString.copyFrom(key))
                .setSerializable(consistency == Consistency.SERIALIZABLE).build();
        return call(s -> s.range(request), false).getKvsCount() > 0;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        PutRequest request = PutRequest.newBuilder().setKey(ByteString.copyFrom(key)).setValue(ByteString.copyFrom(value))
                .build();
        call(s -> s.put(request), true);
    }

    @Override
    public void scan(byte[] from, byte[] end, int limit, Consistency consistency) {
        RangeRequest request = RangeRequest.newBuilder().setKey(ByteString.copyFrom(from))
                .setRangeEnd(ByteString.copyFrom(end)).setLimit(limit)
                .setSerializable(consistency == Consistency.SERIALIZABLE).build();
        call(s -> s.range(request), false);
    }

    @Override
    public void putAll(List<byte[]> keys, List<byte[]> values) {
        if (keys.size() > MAX_TXN_OPS) {
            throw new IllegalArgumentException(keys.size() + " puts in one transaction; etcd takes " + MAX_TXN_OPS);
        }
        TxnRequest.Builder txn = TxnRequest.newBuilder();
        for (int i = 0; i < keys.size(); i++) {
            txn.addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder()
                    .setKey(ByteString.copyFrom(keys.get(i))).setValue(ByteString.copyFrom(values.get(i)))));
        }
        TxnRequest request = txn.build();
        call(s -> s.txn(request), true);
    }

    @Override
    public int maxBatchKeys() {
        return MAX_TXN_OPS;
    }

    /**
     * Compacts to the current revision and waits until the space is being reclaimed
     * ({@code physical}). A compaction at a revision already compacted (nothing written since)
     * is refused by etcd and is no failure here.
     */
    @Override
    public void settle() {
        int i = Math.floorMod(next.getAndIncrement(), stubs.size());
        try {
            long revision = maintenance.get(i).withDeadlineAfter(COMPACT_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)
                    .status(StatusRequest.getDefaultInstance()).getHeader().getRevision();
            stubs.get(i).withDeadlineAfter(COMPACT_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)
                    .compact(CompactionRequest.newBuilder().setRevision(revision).setPhysical(true).build());
        } catch (StatusRuntimeException e) {
            String description = e.getStatus().getDescription();
            boolean compactedAlready = e.getStatus().getCode() == Status.Code.OUT_OF_RANGE && description != null
                    && description.contains("has been compacted");
            if (!compactedAlready) {
                throw new StrataException(StrataException.Code.valueOf(e.getStatus().getCode().name()),
                        "compacting etcd's history at " + endpoints.get(i) + ": " + e.getStatus(), e);
            }
        }
    }

    private <T> T call(Function<KVGrpc.KVBlockingStub, T> rpc, boolean write) {
        return call(Math.floorMod(next.getAndIncrement(), stubs.size()), rpc, write);
    }

    /**
     * One call to endpoint {@code i}; a failure becomes the SDK's exception with the same code, a
     * write's that may have been applied (deadline, connection lost) an outcome-unknown one.
     */
    private <T> T call(int i, Function<KVGrpc.KVBlockingStub, T> rpc, boolean write) {
        try {
            return rpc.apply(stubs.get(i).withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (StatusRuntimeException e) {
            Status.Code code = e.getStatus().getCode();
            StrataException.Code mapped = StrataException.Code.valueOf(code.name());
            String message = "etcd at " + endpoints.get(i) + ": " + e.getStatus();
            boolean unknown = code == Status.Code.DEADLINE_EXCEEDED || code == Status.Code.UNAVAILABLE
                    || code == Status.Code.CANCELLED || code == Status.Code.UNKNOWN;
            throw write && unknown ? new OutcomeUnknownException(mapped, message, e) : new StrataException(mapped, message, e);
        }
    }

    @Override
    public void close() {
        channels.forEach(ManagedChannel::shutdownNow);
        for (ManagedChannel c : channels) {
            try {
                c.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
