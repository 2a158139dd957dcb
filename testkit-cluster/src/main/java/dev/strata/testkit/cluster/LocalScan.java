package dev.strata.testkit.cluster;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.Consistency;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.KeyValue;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Every key a node holds, read from the node itself (SERIALIZABLE, so its own state and not the
 * leader's), page by page: what the harnesses compare replicas with.
 */
final class LocalScan {
    private static final RangeRequest EVERY_KEY = RangeRequest.newBuilder().setKey(ByteString.EMPTY)
            .setRangeEnd(ByteString.copyFrom(new byte[] {0})).setConsistency(Consistency.SERIALIZABLE).build();

    private LocalScan() {
    }

    /** Hands {@code each} every key-value in key order; {@code stub} gives a stub (with its deadline) per page. */
    static void forEach(Supplier<KVGrpc.KVBlockingStub> stub, Consumer<KeyValue> each) {
        ByteString token = ByteString.EMPTY;
        do {
            RangeResponse page = stub.get().range(EVERY_KEY.toBuilder().setPageToken(token).build());
            page.getKvsList().forEach(each);
            token = page.getNextPageToken();
        } while (!token.isEmpty());
    }
}
