package dev.strata.client;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.BatchOp;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.PutRequest;

import java.util.concurrent.CompletableFuture;

/**
 * Many puts and deletes applied atomically at one revision (one Raft entry); a key may be
 * written at most once. Like a txn, a batch is never retried once it may have reached the
 * cluster.
 */
public final class Batch {
    private final AsyncStrataClient client;
    private final BatchRequest.Builder request = BatchRequest.newBuilder();

    Batch(AsyncStrataClient client) {
        this.client = client;
    }

    public Batch put(byte[] key, byte[] value) {
        request.addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder().setKey(ByteString.copyFrom(key))
                .setValue(ByteString.copyFrom(value))));
        return this;
    }

    public Batch put(String key, String value) {
        return put(KeyRange.utf8(key), KeyRange.utf8(value));
    }

    public Batch delete(KeyRange keys) {
        request.addOps(BatchOp.newBuilder().setDelete(Protos.delete(keys, false)));
        return this;
    }

    public Batch delete(String key) {
        return delete(KeyRange.key(key));
    }

    public int size() {
        return request.getOpsCount();
    }

    /** Applies the batch; returns its revision. */
    public long commit() {
        return AsyncStrataClient.await(commitAsync());
    }

    public CompletableFuture<Long> commitAsync() {
        return client.batch(request.build());
    }
}
