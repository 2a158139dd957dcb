package dev.strata.bench.cluster;

import com.google.protobuf.ByteString;
import dev.strata.cli.etcd.pb.CompactionRequest;
import dev.strata.cli.etcd.pb.KVGrpc;
import dev.strata.cli.etcd.pb.MaintenanceGrpc;
import dev.strata.cli.etcd.pb.PutRequest;
import dev.strata.cli.etcd.pb.PutResponse;
import dev.strata.cli.etcd.pb.RangeRequest;
import dev.strata.cli.etcd.pb.RangeResponse;
import dev.strata.cli.etcd.pb.StatusRequest;
import dev.strata.cli.etcd.pb.StatusResponse;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * etcd through its own gRPC API ({@code etcdserverpb.KV} Put and Range,
 * {@code etcdserverpb.Maintenance/Status} for the leader), from the subset of etcd's protos
 * the command line compiles ({@code cli/src/main/proto/etcd}). A linearizable get is a Range of one
 * key with {@code serializable = false}, etcd's default; a serializable one sets it.
 */
final class EtcdKvTarget implements KvTarget {
    private static final Duration COMPACT_TIMEOUT = Duration.ofMinutes(2);

    private final List<String> endpoints;
    private final List<ManagedChannel> channels;
    private final List<KVGrpc.KVStub> stubs;
    private final long deadlineNanos;

    /** @param deadline each operation's gRPC deadline */
    EtcdKvTarget(List<String> endpoints, Duration deadline) {
        this.endpoints = List.copyOf(endpoints);
        this.channels = Channels.open(endpoints);
        this.stubs = channels.stream().map(KVGrpc::newStub).toList();
        this.deadlineNanos = deadline.toNanos();
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
    public void put(int endpoint, ByteString key, ByteString value, Completion done) {
        try {
            stubs.get(endpoint).withDeadlineAfter(deadlineNanos, TimeUnit.NANOSECONDS)
                    .put(PutRequest.newBuilder().setKey(key).setValue(value).build(),
                            Channels.<PutResponse>unary(done, answer -> null));
        } catch (RuntimeException e) {
            done.completed(Failures.of(e));
        }
    }

    @Override
    public void get(int endpoint, ByteString key, boolean linearizable, Completion done) {
        RangeRequest request = RangeRequest.newBuilder().setKey(key).setSerializable(!linearizable).build();
        try {
            stubs.get(endpoint).withDeadlineAfter(deadlineNanos, TimeUnit.NANOSECONDS)
                    .range(request, Channels.<RangeResponse>unary(done,
                            answer -> answer.getKvsCount() > 0 ? null : Failures.MISSING_KEY));
        } catch (RuntimeException e) {
            done.completed(Failures.of(e));
        }
    }

    @Override
    public List<MemberView> members(Duration timeout) {
        List<MemberView> views = new ArrayList<>();
        for (int i = 0; i < channels.size(); i++) {
            try {
                StatusResponse s = status(i, timeout);
                views.add(new MemberView(endpoints.get(i), s.getHeader().getMemberId(), s.getLeader(), null));
            } catch (StatusRuntimeException e) {
                views.add(MemberView.failed(endpoints.get(i), e.getStatus().toString()));
            }
        }
        return views;
    }

    /**
     * Compacts away every revision before the current one and waits until the backend has
     * dropped them ({@code physical}), so the freed pages are reused and the database stops
     * growing; the next run starts after the compaction, not during it.
     *
     * @throws StatusRuntimeException when etcd refuses or does not answer in time
     */
    @Override
    public void betweenRuns() {
        long revision = status(0, COMPACT_TIMEOUT).getHeader().getRevision();
        try {
            KVGrpc.newBlockingStub(channels.getFirst()).withDeadlineAfter(COMPACT_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)
                    .compact(CompactionRequest.newBuilder().setRevision(revision).setPhysical(true).build());
        } catch (StatusRuntimeException e) {
            // Compacting again at a revision already compacted is refused; nothing was written meanwhile.
            if (e.getStatus().getDescription() == null || !e.getStatus().getDescription().contains("compacted")) {
                throw e;
            }
        }
    }

    private StatusResponse status(int endpoint, Duration timeout) {
        return MaintenanceGrpc.newBlockingStub(channels.get(endpoint))
                .withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)
                .status(StatusRequest.getDefaultInstance());
    }

    @Override
    public void close() {
        Channels.close(channels);
    }
}
