package dev.strata.client;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RequestOp;

/** One operation of a {@link Txn} branch: a put, a delete or a read. */
public final class Op {
    final RequestOp request;

    private Op(RequestOp request) {
        this.request = request;
    }

    public static Op put(byte[] key, byte[] value) {
        return new Op(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(ByteString.copyFrom(key))
                .setValue(ByteString.copyFrom(value))).build());
    }

    public static Op put(String key, String value) {
        return put(KeyRange.utf8(key), KeyRange.utf8(value));
    }

    /** Deletes the keys {@code keys} selects. */
    public static Op delete(KeyRange keys) {
        return new Op(RequestOp.newBuilder().setDelete(Protos.delete(keys, false)).build());
    }

    public static Op delete(String key) {
        return delete(KeyRange.key(key));
    }

    /** Reads the keys {@code keys} selects, at most {@code limit} of them (0: the server's page limit). */
    public static Op range(KeyRange keys, long limit) {
        RangeRequest.Builder r = Protos.range(keys).setLimit(limit);
        return new Op(RequestOp.newBuilder().setRange(r).build());
    }

    /** Reads one key (a range of one, answered as a {@link RangeResult}). */
    public static Op get(byte[] key) {
        return range(KeyRange.key(key), 0);
    }

    public static Op get(String key) {
        return get(KeyRange.utf8(key));
    }
}
