package dev.strata.client;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.DeleteResponse;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.proto.v1.ResponseOp;
import dev.strata.proto.v1.StatusResponse;

import java.util.List;

/** Conversions between the SDK's types and the generated protobuf messages, which stay out of the public API. */
final class Protos {
    private Protos() {}

    static RangeRequest.Builder range(KeyRange keys) {
        return RangeRequest.newBuilder().setKey(ByteString.copyFrom(keys.key)).setRangeEnd(ByteString.copyFrom(keys.end))
                .setPrefix(keys.prefix);
    }

    static DeleteRequest delete(KeyRange keys, boolean prevKv) {
        return DeleteRequest.newBuilder().setKey(ByteString.copyFrom(keys.key)).setRangeEnd(ByteString.copyFrom(keys.end))
                .setPrefix(keys.prefix).setPrevKv(prevKv).build();
    }

    static dev.strata.proto.v1.Consistency consistency(Consistency c) {
        return c == Consistency.SERIALIZABLE ? dev.strata.proto.v1.Consistency.SERIALIZABLE
                : dev.strata.proto.v1.Consistency.LINEARIZABLE;
    }

    static KeyValue kv(dev.strata.proto.v1.KeyValue kv) {
        return new KeyValue(kv.getKey().toByteArray(), kv.getValue().toByteArray(), kv.getCreateRevision(),
                kv.getModRevision(), kv.getVersion());
    }

    static List<KeyValue> kvs(List<dev.strata.proto.v1.KeyValue> kvs) {
        return kvs.stream().map(Protos::kv).toList();
    }

    static PutResult put(PutResponse r) {
        return new PutResult(r.getHeader().getRevision(), r.hasPrevKv() ? kv(r.getPrevKv()) : null);
    }

    static DeleteResult delete(DeleteResponse r) {
        return new DeleteResult(r.getHeader().getRevision(), r.getDeleted(), kvs(r.getPrevKvsList()));
    }

    static RangeResult range(RangeResponse r) {
        return new RangeResult(r.getHeader().getRevision(), kvs(r.getKvsList()), !r.getNextPageToken().isEmpty());
    }

    static OpResult op(ResponseOp r) {
        return switch (r.getResponseCase()) {
            case PUT -> put(r.getPut());
            case DELETE -> delete(r.getDelete());
            case RANGE -> range(r.getRange());
            case RESPONSE_NOT_SET -> throw new StrataException(StrataException.Code.INTERNAL,
                    "the server answered an operation with nothing", null);
        };
    }

    static Member member(dev.strata.proto.v1.Member m) {
        return new Member(m.getId(), m.getRaftAddress(), m.getClientAddress(), m.getIsLearner());
    }

    static NodeStatus status(StatusResponse s) {
        return new NodeStatus(s.getHeader().getMemberId(), s.getRole().name(), s.getLeaderId(), s.getLeaderEndpoint(),
                s.getHeader().getRaftTerm(), s.getCommitIndex(), s.getAppliedIndex(), s.getEngine().getLiveBytes());
    }
}
