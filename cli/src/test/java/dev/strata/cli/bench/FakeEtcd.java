package dev.strata.cli.bench;

import com.google.protobuf.ByteString;
import dev.strata.cli.etcd.pb.KVGrpc;
import dev.strata.cli.etcd.pb.KeyValue;
import dev.strata.cli.etcd.pb.PutRequest;
import dev.strata.cli.etcd.pb.PutResponse;
import dev.strata.cli.etcd.pb.RangeRequest;
import dev.strata.cli.etcd.pb.RangeResponse;
import dev.strata.cli.etcd.pb.RequestOp;
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

/**
 * An etcd stand-in on a loopback port: etcd's KV service (Range, Put, Txn of puts) over a sorted
 * map, recording what it was asked, so tests can check what {@code strata bench --target etcd}
 * sends without an etcd binary. {@link #failPuts} makes every put and transaction fail with a status.
 */
public final class FakeEtcd implements AutoCloseable {
    /** Byte strings compared as etcd compares keys: unsigned, lexicographically. */
    private final ConcurrentSkipListMap<ByteString, ByteString> data =
            new ConcurrentSkipListMap<>(ByteString.unsignedLexicographicalComparator());
    public final ConcurrentLinkedQueue<RangeRequest> ranges = new ConcurrentLinkedQueue<>();
    public final ConcurrentLinkedQueue<Integer> txnSizes = new ConcurrentLinkedQueue<>();
    public final AtomicInteger puts = new AtomicInteger();
    public volatile Status failPuts;
    private final Server server;

    public FakeEtcd() throws IOException {
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create()).addService(new Kv()).build().start();
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
            if (failPuts != null) {
                answer.onError(failPuts.asRuntimeException());
                return;
            }
            puts.incrementAndGet();
            data.put(r.getKey(), r.getValue());
            answer.onNext(PutResponse.getDefaultInstance());
            answer.onCompleted();
        }

        @Override
        public void txn(TxnRequest r, StreamObserver<TxnResponse> answer) {
            if (failPuts != null) {
                answer.onError(failPuts.asRuntimeException());
                return;
            }
            if (r.getSuccessCount() > EtcdTarget.MAX_TXN_OPS) {
                answer.onError(Status.INVALID_ARGUMENT.withDescription("etcdserver: too many operations in txn request")
                        .asRuntimeException());
                return;
            }
            txnSizes.add(r.getSuccessCount());
            List<RequestOp> ops = r.getSuccessList();
            ops.forEach(op -> data.put(op.getRequestPut().getKey(), op.getRequestPut().getValue()));
            answer.onNext(TxnResponse.newBuilder().setSucceeded(true).build());
            answer.onCompleted();
        }
    }
}
