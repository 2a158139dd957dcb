package dev.strata.client;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.CheckpointRequest;
import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.MemberAddRequest;
import dev.strata.proto.v1.MemberListRequest;
import dev.strata.proto.v1.MemberPromoteRequest;
import dev.strata.proto.v1.MemberRemoveRequest;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.StatusRequest;
import dev.strata.proto.v1.TransferLeaderRequest;
import dev.strata.proto.v1.TxnRequest;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The {@link CompletableFuture} form of every {@link StrataClient} call, from
 * {@link StrataClient#async()}. A future fails with a {@link StrataException} (an
 * {@link OutcomeUnknownException} for a write that may have been applied). Futures complete on
 * gRPC's threads: do not block in their callbacks.
 */
public final class AsyncStrataClient {
    private final Calls calls;

    AsyncStrataClient(Calls calls) {
        this.calls = calls;
    }

    public CompletableFuture<PutResult> put(byte[] key, byte[] value) {
        return put(key, value, false);
    }

    /** Sets {@code key}; with {@code previous}, the result holds the key as it was. */
    public CompletableFuture<PutResult> put(byte[] key, byte[] value, boolean previous) {
        PutRequest r = PutRequest.newBuilder().setKey(ByteString.copyFrom(key)).setValue(ByteString.copyFrom(value))
                .setPrevKv(previous).build();
        return calls.<dev.strata.proto.v1.PutResponse>run("put", Calls.Kind.WRITE,
                (ch, d, o) -> KVGrpc.newStub(ch).withDeadline(d).put(r, o)).thenApply(Protos::put);
    }

    /** The key, or empty when it does not exist. */
    public CompletableFuture<Optional<KeyValue>> get(byte[] key, Consistency consistency) {
        GetRequest r = GetRequest.newBuilder().setKey(ByteString.copyFrom(key)).setConsistency(Protos.consistency(consistency))
                .build();
        return calls.<dev.strata.proto.v1.GetResponse>run("get", Calls.Kind.READ,
                (ch, d, o) -> KVGrpc.newStub(ch).withDeadline(d).get(r, o))
                .thenApply(g -> g.hasKv() ? Optional.of(Protos.kv(g.getKv())) : Optional.empty());
    }

    /** Deletes the keys {@code keys} selects; with {@code previous}, the result holds them as they were. */
    public CompletableFuture<DeleteResult> delete(KeyRange keys, boolean previous) {
        dev.strata.proto.v1.DeleteRequest r = Protos.delete(keys, previous);
        return calls.<dev.strata.proto.v1.DeleteResponse>run("delete", Calls.Kind.WRITE,
                (ch, d, o) -> KVGrpc.newStub(ch).withDeadline(d).delete(r, o)).thenApply(Protos::delete);
    }

    /**
     * One page of the keys {@code keys} selects, starting after {@code pageToken} (empty for the
     * first page); {@link StrataClient#range} follows the pages for you.
     */
    CompletableFuture<dev.strata.proto.v1.RangeResponse> rangePage(KeyRange keys, RangeOptions options, int pageLimit,
                                                                   ByteString pageToken, boolean countOnly) {
        RangeRequest r = Protos.range(keys).setLimit(pageLimit).setKeysOnly(options.keysOnly()).setCountOnly(countOnly)
                .setConsistency(Protos.consistency(options.consistency())).setPageToken(pageToken).build();
        return calls.run("range", Calls.Kind.READ, (ch, d, o) -> KVGrpc.newStub(ch).withDeadline(d).range(r, o));
    }

    /** The first page of the keys {@code keys} selects, at most {@code limit} (0: the server's page limit). */
    public CompletableFuture<RangeResult> rangePage(KeyRange keys, int limit, Consistency consistency) {
        return rangePage(keys, RangeOptions.defaults().withConsistency(consistency), limit, ByteString.EMPTY, false)
                .thenApply(Protos::range);
    }

    /** How many keys {@code keys} selects. */
    public CompletableFuture<Long> count(KeyRange keys, Consistency consistency) {
        return rangePage(keys, RangeOptions.defaults().withConsistency(consistency), 0, ByteString.EMPTY, true)
                .thenApply(dev.strata.proto.v1.RangeResponse::getCount);
    }

    CompletableFuture<TxnResult> txn(TxnRequest r) {
        return calls.<dev.strata.proto.v1.TxnResponse>run("txn", Calls.Kind.WRITE,
                (ch, d, o) -> KVGrpc.newStub(ch).withDeadline(d).txn(r, o))
                .thenApply(t -> new TxnResult(t.getSucceeded(), t.getHeader().getRevision(),
                        t.getResponsesList().stream().map(Protos::op).toList()));
    }

    CompletableFuture<Long> batch(BatchRequest r) {
        return calls.<dev.strata.proto.v1.BatchResponse>run("batch", Calls.Kind.WRITE,
                (ch, d, o) -> KVGrpc.newStub(ch).withDeadline(d).batch(r, o)).thenApply(b -> b.getHeader().getRevision());
    }

    /** A transaction to build and commit. */
    public Txn txn() {
        return new Txn(this);
    }

    /** A batch to build and commit. */
    public Batch batch() {
        return new Batch(this);
    }

    /** The status of whichever node answers (the preferred one). */
    public CompletableFuture<NodeStatus> status() {
        return calls.<dev.strata.proto.v1.StatusResponse>run("status", Calls.Kind.READ,
                (ch, d, o) -> ClusterGrpc.newStub(ch).withDeadline(d).status(StatusRequest.getDefaultInstance(), o))
                .thenApply(Protos::status);
    }

    public CompletableFuture<List<Member>> members() {
        return calls.<dev.strata.proto.v1.MemberListResponse>run("member list", Calls.Kind.READ,
                (ch, d, o) -> ClusterGrpc.newStub(ch).withDeadline(d).memberList(MemberListRequest.getDefaultInstance(), o))
                .thenApply(r -> r.getMembersList().stream().map(Protos::member).toList());
    }

    /** Adds a learner (it catches up, then {@link #promoteMember promote} it to vote). Returns the members after. */
    public CompletableFuture<List<Member>> addMember(long id, String raftAddress, String clientAddress) {
        MemberAddRequest r = MemberAddRequest.newBuilder().setId(id).setRaftAddress(raftAddress).setClientAddress(clientAddress)
                .build();
        return calls.<dev.strata.proto.v1.MemberAddResponse>run("member add", Calls.Kind.WRITE,
                (ch, d, o) -> ClusterGrpc.newStub(ch).withDeadline(d).memberAdd(r, o))
                .thenApply(a -> a.getMembersList().stream().map(Protos::member).toList());
    }

    public CompletableFuture<List<Member>> promoteMember(long id) {
        MemberPromoteRequest r = MemberPromoteRequest.newBuilder().setId(id).build();
        return calls.<dev.strata.proto.v1.MemberPromoteResponse>run("member promote", Calls.Kind.WRITE,
                (ch, d, o) -> ClusterGrpc.newStub(ch).withDeadline(d).memberPromote(r, o))
                .thenApply(a -> a.getMembersList().stream().map(Protos::member).toList());
    }

    public CompletableFuture<List<Member>> removeMember(long id) {
        MemberRemoveRequest r = MemberRemoveRequest.newBuilder().setId(id).build();
        return calls.<dev.strata.proto.v1.MemberRemoveResponse>run("member remove", Calls.Kind.WRITE,
                (ch, d, o) -> ClusterGrpc.newStub(ch).withDeadline(d).memberRemove(r, o))
                .thenApply(a -> a.getMembersList().stream().map(Protos::member).toList());
    }

    /** Asks the leader to hand leadership to {@code id}; returns the leader after. */
    public CompletableFuture<Long> transferLeader(long id) {
        TransferLeaderRequest r = TransferLeaderRequest.newBuilder().setTargetId(id).build();
        return calls.<dev.strata.proto.v1.TransferLeaderResponse>run("transfer leader", Calls.Kind.WRITE,
                (ch, d, o) -> ClusterGrpc.newStub(ch).withDeadline(d).transferLeader(r, o))
                .thenApply(dev.strata.proto.v1.TransferLeaderResponse::getLeaderId);
    }

    /**
     * Has the node the client is using take a checkpoint now (flush, then let Raft purge its log).
     * Safe to retry: a second checkpoint right after the first changes nothing.
     */
    public CompletableFuture<CheckpointInfo> checkpoint() {
        return calls.<dev.strata.proto.v1.CheckpointResponse>run("checkpoint", Calls.Kind.READ,
                (ch, d, o) -> ClusterGrpc.newStub(ch).withDeadline(d).checkpoint(CheckpointRequest.getDefaultInstance(), o))
                .thenApply(r -> new CheckpointInfo(r.getHeader().getMemberId(), r.getTerm(), r.getIndex()));
    }

    /** Waits for {@code f}, throwing its {@link StrataException} as it is. */
    static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new StrataException(StrataException.Code.CANCELLED, "interrupted while waiting", e);
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        }
    }

    private static RuntimeException unwrap(Throwable t) {
        Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        if (c instanceof StrataException se) {
            return se;
        }
        return c instanceof RuntimeException re ? re : new StrataException(StrataException.Code.UNKNOWN, c.toString(), c);
    }
}
