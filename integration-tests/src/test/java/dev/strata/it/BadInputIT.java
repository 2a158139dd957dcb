package dev.strata.it;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.BatchOp;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.Compare;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.MemberAddRequest;
import dev.strata.proto.v1.MemberPromoteRequest;
import dev.strata.proto.v1.MemberRemoveRequest;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.proto.v1.RequestOp;
import dev.strata.proto.v1.StatusResponse;
import dev.strata.proto.v1.TransferLeaderRequest;
import dev.strata.proto.v1.TxnRequest;
import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static dev.strata.it.Kv.b;
import static dev.strata.it.Kv.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Every bad input gets its status code and a message naming the rule or limit; lost quorum and timeouts get theirs. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputIT {
    @TempDir
    static Path dir;
    static InProcessCluster cluster;

    @BeforeAll
    static void start() {
        // A 3 s election timeout: a leader that lost its followers keeps leading for about 6 s, long
        // past the 2 s request timeout, so the timeout and the lost quorum can be seen one after the other.
        cluster = InProcessCluster.start(dir, 3, Map.of("strata.raft.election-timeout", "3s", "strata.server.request-timeout", "2s"));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static void assertStatus(ThrowingCallable call, Status.Code code, String message) {
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call);
        assertThat(e).as("expected %s: %s", code, message).isNotNull();
        assertThat(e.getStatus().getCode()).isEqualTo(code);
        assertThat(e.getStatus().getDescription()).contains(message);
    }

    private static KVGrpc.KVBlockingStub kv() {
        return cluster.kv(2);
    }

    @Test
    @Order(1)
    void emptyAndOversizedKeys() {
        assertStatus(() -> kv().put(PutRequest.newBuilder().setValue(b("v")).build()), Status.Code.INVALID_ARGUMENT, "key must not be empty");
        assertStatus(() -> kv().get(GetRequest.getDefaultInstance()), Status.Code.INVALID_ARGUMENT, "key must not be empty");
        assertStatus(() -> kv().delete(DeleteRequest.getDefaultInstance()), Status.Code.INVALID_ARGUMENT, "key must not be empty");
        ByteString big = ByteString.copyFrom(new byte[64 * 1024 + 1]);
        assertStatus(() -> kv().put(PutRequest.newBuilder().setKey(big).build()), Status.Code.INVALID_ARGUMENT,
                "key is 65537 bytes, the limit is 65536 bytes (64 KiB)");
        assertStatus(() -> kv().get(GetRequest.newBuilder().setKey(big).build()), Status.Code.INVALID_ARGUMENT,
                "key is 65537 bytes, the limit is 65536 bytes");
    }

    @Test
    @Order(2)
    void oversizedValuesAndRequestsMeetTheirCheckNotTheTransport() {
        ByteString overLimit = ByteString.copyFrom(new byte[(1 << 20) + 1]);
        assertStatus(() -> kv().put(PutRequest.newBuilder().setKey(b("big")).setValue(overLimit).build()), Status.Code.INVALID_ARGUMENT,
                "value is 1048577 bytes, the limit is 1048576 bytes (strata.server.max-value-size)");
        ByteString atLimit = ByteString.copyFrom(new byte[1 << 20]);
        assertThat(kv().put(PutRequest.newBuilder().setKey(b("big")).setValue(atLimit).build()).getHeader().getRevision()).isPositive();
        BatchRequest twoBig = BatchRequest.newBuilder()
                .addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("b1")).setValue(atLimit)))
                .addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("b2")).setValue(atLimit)))
                .build();
        assertStatus(() -> kv().batch(twoBig), Status.Code.INVALID_ARGUMENT, "the limit is 2097152 bytes (strata.server.max-request-size)");
    }

    @Test
    @Order(3)
    void badRangesAndPageTokens() {
        assertStatus(() -> kv().range(RangeRequest.newBuilder().setKey(b("b")).setRangeEnd(b("a")).build()), Status.Code.INVALID_ARGUMENT,
                "range_end \"a\" must be greater than key \"b\"");
        assertStatus(() -> kv().delete(DeleteRequest.newBuilder().setKey(b("b")).setRangeEnd(b("b")).build()), Status.Code.INVALID_ARGUMENT,
                "must be greater than key");
        assertStatus(() -> kv().range(RangeRequest.newBuilder().setKey(b("a")).setRangeEnd(b("z")).setPrefix(true).build()),
                Status.Code.INVALID_ARGUMENT, "prefix and range_end cannot both be set");
        assertStatus(() -> kv().range(RangeRequest.newBuilder().setKey(b("a")).setLimit(-5).build()), Status.Code.INVALID_ARGUMENT,
                "limit must not be negative");
        assertStatus(() -> kv().range(RangeRequest.newBuilder().setKey(b("a")).setPrefix(true).setPageToken(b("not a token")).build()),
                Status.Code.INVALID_ARGUMENT, "page_token is malformed");

        for (int i = 0; i < 3; i++) {
            put(kv(), "tok/" + i, "v");
        }
        RangeResponse page = kv().range(RangeRequest.newBuilder().setKey(b("tok/")).setPrefix(true).setLimit(1).build());
        assertThat(page.getNextPageToken()).isNotEmpty();
        assertStatus(() -> kv().range(RangeRequest.newBuilder().setKey(b("other/")).setPrefix(true).setPageToken(page.getNextPageToken()).build()),
                Status.Code.INVALID_ARGUMENT, "page_token is malformed: it belongs to a request with another key, range_end or prefix");
        byte[] edited = page.getNextPageToken().toByteArray();
        edited[edited.length / 2] ^= 0x40;
        assertStatus(() -> kv().range(RangeRequest.newBuilder().setKey(b("tok/")).setPrefix(true).setPageToken(ByteString.copyFrom(edited)).build()),
                Status.Code.INVALID_ARGUMENT, "page_token is malformed");
    }

    @Test
    @Order(4)
    void txnsThatBreakTheRules() {
        RequestOp putA = RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("a")).setValue(b("1"))).build();
        assertStatus(() -> kv().txn(TxnRequest.newBuilder().addSuccess(putA).addSuccess(putA).build()), Status.Code.INVALID_ARGUMENT,
                "success[1] writes key \"a\" a second time in success");
        Compare mismatched = Compare.newBuilder().setKey(b("a")).setTarget(Compare.Target.MOD_REVISION).setVersion(3).build();
        assertStatus(() -> kv().txn(TxnRequest.newBuilder().addCompare(mismatched).build()), Status.Code.INVALID_ARGUMENT,
                "compare[0] compares MOD_REVISION but sets the version operand");
        RequestOp badRange = RequestOp.newBuilder().setRange(RangeRequest.newBuilder().setKey(b("z")).setRangeEnd(b("a"))).build();
        assertStatus(() -> kv().txn(TxnRequest.newBuilder().addFailure(badRange).build()), Status.Code.INVALID_ARGUMENT,
                "must be greater than key");
    }

    @Test
    @Order(5)
    void membershipRequestsThatDoNotFit() {
        assertStatus(() -> cluster.cluster(1).memberAdd(MemberAddRequest.newBuilder().setId(9).setRaftAddress("nowhere")
                .setClientAddress("127.0.0.1:1").build()), Status.Code.INVALID_ARGUMENT, "raft_address must be host:port, was \"nowhere\"");
        assertStatus(() -> cluster.cluster(1).memberAdd(MemberAddRequest.newBuilder().setId(2).setRaftAddress("127.0.0.1:1")
                .setClientAddress("127.0.0.1:2").build()), Status.Code.ALREADY_EXISTS, "node 2 is already a member");
        assertStatus(() -> cluster.cluster(1).memberPromote(MemberPromoteRequest.newBuilder().setId(2).build()),
                Status.Code.FAILED_PRECONDITION, "node 2 is already a voter");
        assertStatus(() -> cluster.cluster(1).memberRemove(MemberRemoveRequest.newBuilder().setId(9).build()),
                Status.Code.NOT_FOUND, "node 9 is not a member");
        assertStatus(() -> cluster.cluster(1).transferLeader(TransferLeaderRequest.newBuilder().setTargetId(9).build()),
                Status.Code.NOT_FOUND, "node 9 is not a voter");
        assertStatus(() -> cluster.cluster(1).memberRemove(MemberRemoveRequest.getDefaultInstance()),
                Status.Code.INVALID_ARGUMENT, "id must be a positive node id");
    }

    @Test
    @Order(10)
    void aLeaderWithoutQuorumTimesOutThenNoLeaderIsUnavailable() {
        long leader = cluster.awaitLeader();
        for (long id : cluster.runningIds()) {
            if (id != leader) {
                cluster.stopNodeAbruptly(id);
            }
        }
        // The leader still leads (it steps down only after two election timeouts without its followers)
        // but cannot commit: the server's own 2 s request timeout ends the write.
        assertStatus(() -> put(cluster.kv(leader), "lost/1", "x"), Status.Code.DEADLINE_EXCEEDED,
                "did not finish within 2000 ms (strata.server.request-timeout");

        Await.until(() -> cluster.status(leader).getLeaderId() == 0 && cluster.status(leader).getRole() != StatusResponse.Role.LEADER,
                Duration.ofSeconds(30), "the leader to step down without a quorum");
        assertStatus(() -> put(cluster.kv(leader), "lost/2", "x"), Status.Code.UNAVAILABLE, "no leader is known");
        assertStatus(() -> Kv.get(cluster.kv(leader), "lost/2"), Status.Code.UNAVAILABLE, "no leader is known");
        assertThat(Kv.getLocal(cluster.kv(leader), "tok/0")).as("serializable reads need no leader").isNotNull();
    }
}
