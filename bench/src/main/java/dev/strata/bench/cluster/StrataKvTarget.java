package dev.strata.bench.cluster;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.Consistency;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.StatusRequest;
import dev.strata.proto.v1.StatusResponse;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Strata through its own API ({@code strata.v1.KV} Put and Get with a consistency,
 * {@code strata.v1.Cluster/Status} for the leader), with the generated stubs and no SDK: the SDK's
 * retries and failover would hide failures the benchmark must count.
 */
final class StrataKvTarget implements KvTarget {
    private final List<String> endpoints;
    private final List<ManagedChannel> channels;
    private final List<KVGrpc.KVStub> stubs;
    private final long deadlineNanos;

    /** @param deadline each operation's gRPC deadline */
    StrataKvTarget(List<String> endpoints, Duration deadline) {
        this.endpoints = List.copyOf(endpoints);
        this.channels = Channels.open(endpoints);
        this.stubs = channels.stream().map(KVGrpc::newStub).toList();
        this.deadlineNanos = deadline.toNanos();
    }

    @Override
    public String system() {
        return "strata";
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
        GetRequest request = GetRequest.newBuilder().setKey(key)
                .setConsistency(linearizable ? Consistency.LINEARIZABLE : Consistency.SERIALIZABLE).build();
        try {
            stubs.get(endpoint).withDeadlineAfter(deadlineNanos, TimeUnit.NANOSECONDS)
                    .get(request, Channels.<GetResponse>unary(done, answer -> answer.hasKv() ? null : Failures.MISSING_KEY));
        } catch (RuntimeException e) {
            done.completed(Failures.of(e));
        }
    }

    @Override
    public List<MemberView> members(Duration timeout) {
        List<MemberView> views = new ArrayList<>();
        for (int i = 0; i < channels.size(); i++) {
            try {
                StatusResponse s = ClusterGrpc.newBlockingStub(channels.get(i))
                        .withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)
                        .status(StatusRequest.getDefaultInstance());
                views.add(new MemberView(endpoints.get(i), s.getHeader().getMemberId(), s.getLeaderId(), null));
            } catch (StatusRuntimeException e) {
                views.add(MemberView.failed(endpoints.get(i), e.getStatus().toString()));
            }
        }
        return views;
    }

    @Override
    public void close() {
        Channels.close(channels);
    }
}
