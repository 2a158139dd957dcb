package dev.strata.it;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.Consistency;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.KeyValue;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;

/** Short forms of the calls tests make most. */
final class Kv {
    private Kv() {}

    static ByteString b(String s) {
        return ByteString.copyFromUtf8(s);
    }

    static PutResponse put(KVGrpc.KVBlockingStub kv, String key, String value) {
        return kv.put(PutRequest.newBuilder().setKey(b(key)).setValue(b(value)).build());
    }

    /** The key's value by a linearizable read, or null. */
    static KeyValue get(KVGrpc.KVBlockingStub kv, String key) {
        GetResponse r = kv.get(GetRequest.newBuilder().setKey(b(key)).build());
        return r.hasKv() ? r.getKv() : null;
    }

    /** The key's value by a serializable (local) read, or null. */
    static KeyValue getLocal(KVGrpc.KVBlockingStub kv, String key) {
        GetResponse r = kv.get(GetRequest.newBuilder().setKey(b(key)).setConsistency(Consistency.SERIALIZABLE).build());
        return r.hasKv() ? r.getKv() : null;
    }
}
