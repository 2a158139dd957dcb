package dev.strata.cli.bench;

import com.google.protobuf.ByteString;
import dev.strata.cli.etcd.pb.CompactionRequest;
import dev.strata.cli.etcd.pb.CompactionResponse;
import dev.strata.cli.etcd.pb.KVGrpc;
import dev.strata.cli.etcd.pb.KeyValue;
import dev.strata.cli.etcd.pb.MaintenanceGrpc;
import dev.strata.cli.etcd.pb.PutRequest;
import dev.strata.cli.etcd.pb.PutResponse;
import dev.strata.cli.etcd.pb.RangeRequest;
import dev.strata.cli.etcd.pb.RangeResponse;
import dev.strata.cli.etcd.pb.RequestOp;
import dev.strata.cli.etcd.pb.ResponseHeader;
import dev.strata.cli.etcd.pb.StatusRequest;
import dev.strata.cli.etcd.pb.StatusResponse;
import dev.strata.cli.etcd.pb.TxnRequest;
import dev.strata.cli.etcd.pb.TxnResponse;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An etcd stand-in on a loopback port: etcd's KV service (Range, Put, Txn of puts, Compact) and
 * Maintenance/Status over a sorted map, with a revision counted per write and etcd's default limit
 * of 128 operations per transaction, recording what it was asked, so tests can check what
 * {@code strata bench --target etcd} sends without an etcd binary. {@link #failPuts} makes every
 * put and transaction fail with a status, {@link #silent} leaves every range and put unanswered.
 */
public final class FakeEtcd implements AutoCloseable {
    /** Byte strings compared as etcd compares keys: unsigned, lexicographically. */
    private final ConcurrentSkipListMap<ByteString, ByteString> data =
            new ConcurrentSkipListMap<>(ByteString.unsignedLexicographicalComparator());
    public final ConcurrentLinkedQueue<RangeRequest> ranges = new ConcurrentLinkedQueue<>();
    public final ConcurrentLinkedQueue<Integer> txnSizes = new ConcurrentLinkedQueue<>();
    public final AtomicInteger puts = new AtomicInteger();
    public final ConcurrentLinkedQueue<CompactionRequest> compactions = new ConcurrentLinkedQueue<>();
    public final AtomicLong revision = new AtomicLong(1);
    public volatile Status failPuts;
    /** When set, ranges and puts are never answered: only the caller's deadline ends them. */
    public volatile boolean silent;
    private final Server server;

    public FakeEtcd() throws IOException {
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create()).addService(new Kv()).addService(new Maintenance())
                .build().start();
    }

    public String endpoint() {
        return "127.0.0.1:" + server.getPort();
    }

    public int size() {
        return data.size();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private final class Kv extends KVGrpc.KVImplBase {
        @Override
        public void range(RangeRequest r, StreamObserver<RangeResponse> answer) {
            if (silent) {
                return;
            }
            ranges.add(r);
            RangeResponse.Builder b = RangeResponse.newBuilder();
            Map<ByteString, ByteString> selected = r.getRangeEnd().isEmpty()
                    ? data.subMap(r.getKey(), true, r.getKey(), true)
                    : data.subMap(r.getKey(), r.getRangeEnd());
            for (var e : selected.entrySet()) {
                if (r.getLimit() > 0 && b.getKvsCount() == r.getLimit()) {
                    b.setMore(true);
                    break;
                }
                b.addKvs(KeyValue.newBuilder().setKey(e.getKey()).setValue(e.getValue()));
            }
            answer.onNext(b.setCount(selected.size()).build());
            answer.onCompleted();
        }

        @Override
        public void put(PutRequest r, StreamObserver<PutResponse> answer) {
            if (silent) {
                return;
            }
            if (failPuts != null) {
                answer.onError(failPuts.asRuntimeException());
                return;
            }
            puts.incrementAndGet();
            data.put(r.getKey(), r.getValue());
            revision.incrementAndGet();
            answer.onNext(PutResponse.getDefaultInstance());
            answer.onCompleted();
        }

        @Override
        public void txn(TxnRequest r, StreamObserver<TxnResponse> answer) {
            if (failPuts != null) {
                answer.onError(failPuts.asRuntimeException());
                return;
            }
            if (r.getSuccessCount() > 128) {
                answer.onError(Status.INVALID_ARGUMENT.withDescription("etcdserver: too many operations in txn request")
                        .asRuntimeException());
                return;
            }
            txnSizes.add(r.getSuccessCount());
            List<RequestOp> ops = r.getSuccessList();
            ops.forEach(op -> data.put(op.getRequestPut().getKey(), op.getRequestPut().getValue()));
            revision.incrementAndGet();
            answer.onNext(TxnResponse.newBuilder().setSucceeded(true).build());
            answer.onCompleted();
        }

        @Override
        public void compact(CompactionRequest r, StreamObserver<CompactionResponse> answer) {
            CompactionRequest last = null;
            for (CompactionRequest c : compactions) {
                last = c;
            }
            if (last != null && r.getRevision() <= last.getRevision()) {
                answer.onError(Status.OUT_OF_RANGE
                        .withDescription("etcdserver: mvcc: required revision has been compacted").asRuntimeException());
                return;
            }
            compactions.add(r);
            answer.onNext(CompactionResponse.getDefaultInstance());
            answer.onCompleted();
        }
    }

    private final class Maintenance extends MaintenanceGrpc.MaintenanceImplBase {
        @Override
        public void status(StatusRequest r, StreamObserver<StatusResponse> answer) {
            answer.onNext(StatusResponse.newBuilder()
                    .setHeader(ResponseHeader.newBuilder().setRevision(revision.get())).build());
            answer.onCompleted();
        }
    }
}
