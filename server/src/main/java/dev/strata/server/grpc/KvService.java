package dev.strata.server.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.internal.v1.Query;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.BatchResponse;
import dev.strata.proto.v1.Consistency;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.DeleteResponse;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.proto.v1.ResponseHeader;
import dev.strata.proto.v1.TxnRequest;
import dev.strata.proto.v1.TxnResponse;
import dev.strata.server.kv.KvReader;
import dev.strata.server.kv.RequestValidator;
import dev.strata.server.raft.RaftNode;
import dev.strata.server.raft.WriteReply;
import io.grpc.stub.StreamObserver;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * {@code strata.v1.KV}: validates each request here (so a bad one fails at once, before any
 * Raft round), replicates writes through the node's proposer, and serves reads from the
 * local engine, after a ReadIndex barrier unless the request asks for SERIALIZABLE. Responses
 * carry this node's id and term in their header.
 */
final class KvService extends KVGrpc.KVImplBase {
    private final RaftNode node;
    private final RequestValidator validator;
    private final KvReader reader;
    private final Responder responder;

    KvService(RaftNode node, RequestValidator validator, Responder responder) {
        this.node = node;
        this.validator = validator;
        this.reader = new KvReader(validator.limits());
        this.responder = responder;
    }

    @Override
    public void put(PutRequest request, StreamObserver<PutResponse> observer) {
        responder.respondBounded(observer, () -> {
            validator.put(request);
            return write(Command.newBuilder().setPut(request).build(), PutResponse.class, PutResponse.parser())
                    .thenApply(r -> r.toBuilder().setHeader(header(r.getHeader())).build());
        });
    }

    @Override
    public void delete(DeleteRequest request, StreamObserver<DeleteResponse> observer) {
        responder.respondBounded(observer, () -> {
            validator.delete(request);
            return write(Command.newBuilder().setDelete(request).build(), DeleteResponse.class, DeleteResponse.parser())
                    .thenApply(r -> r.toBuilder().setHeader(header(r.getHeader())).build());
        });
    }

    @Override
    public void txn(TxnRequest request, StreamObserver<TxnResponse> observer) {
        responder.respondBounded(observer, () -> {
            validator.txn(request);
            return write(Command.newBuilder().setTxn(request).build(), TxnResponse.class, TxnResponse.parser())
                    .thenApply(r -> r.toBuilder().setHeader(header(r.getHeader())).build());
        });
    }

    @Override
    public void batch(BatchRequest request, StreamObserver<BatchResponse> observer) {
        responder.respondBounded(observer, () -> {
            validator.batch(request);
            return write(Command.newBuilder().setBatch(request).build(), BatchResponse.class, BatchResponse.parser())
                    .thenApply(r -> r.toBuilder().setHeader(header(r.getHeader())).build());
        });
    }

    @Override
    public void get(GetRequest request, StreamObserver<GetResponse> observer) {
        responder.respondBounded(observer, () -> {
            validator.get(request);
            return read(request.getConsistency(), Query.newBuilder().setGet(request).build(), GetResponse::parseFrom,
                    () -> node.read((view, rev) -> reader.get(view, request, rev)))
                    .thenApply(r -> r.toBuilder().setHeader(header(r.getHeader())).build());
        });
    }

    @Override
    public void range(RangeRequest request, StreamObserver<RangeResponse> observer) {
        responder.respondBounded(observer, () -> {
            validator.range(request);
            return read(request.getConsistency(), Query.newBuilder().setRange(request).build(), RangeResponse::parseFrom,
                    () -> node.read((view, rev) -> reader.range(view, request, rev)))
                    .thenApply(r -> r.toBuilder().setHeader(header(r.getHeader())).build());
        });
    }

    /**
     * A serializable read runs here at once; a linearizable one after the ReadIndex barrier, or
     * on the leader when this node cannot run the barrier itself (a learner).
     */
    private <T> CompletableFuture<T> read(Consistency consistency, Query asQuery, Parser<T> parser, Supplier<T> local) {
        if (consistency == Consistency.SERIALIZABLE) {
            return CompletableFuture.completedFuture(local.get());
        }
        if (!node.servesReadIndex()) {
            return parse(node.readThroughLeader(asQuery), parser, "read");
        }
        // The barrier completes on a thread of the node's own (never Ratis's), which then reads.
        return node.linearizableBarrier().thenApply(v -> local.get());
    }

    /** Replicates {@code command}; cancelling the result (its client gave up) withdraws a write that has not left yet. */
    private <T extends MessageLite> CompletableFuture<T> write(Command command, Class<T> type, com.google.protobuf.Parser<T> parser) {
        CompletableFuture<WriteReply> written = node.write(command);
        CompletableFuture<T> result = written.thenApply(reply -> {
            try {
                return reply.as(type, parser);
            } catch (InvalidProtocolBufferException e) {
                throw new CompletionException(new IllegalStateException("the reply to a " + command.getOpCase()
                        + " is not a valid response: " + e.getMessage(), e));
            }
        });
        result.whenComplete((r, e) -> {
            if (result.isCancelled()) {
                written.cancel(false);
            }
        });
        return result;
    }

    private static <T> CompletableFuture<T> parse(CompletableFuture<ByteBuffer> reply, Parser<T> parser, String what) {
        return reply.thenApply(bytes -> {
            try {
                return parser.parse(bytes);
            } catch (InvalidProtocolBufferException e) {
                throw new CompletionException(new IllegalStateException("the reply to a " + what
                        + " is not a valid response: " + e.getMessage(), e));
            }
        });
    }

    /** The state machine sets the revision; this node adds who answered and in which term. */
    private ResponseHeader header(ResponseHeader fromStateMachine) {
        return fromStateMachine.toBuilder().setMemberId(node.id()).setRaftTerm(node.term()).build();
    }

    @FunctionalInterface
    private interface Parser<T> {
        T parse(ByteBuffer bytes) throws InvalidProtocolBufferException;
    }
}
