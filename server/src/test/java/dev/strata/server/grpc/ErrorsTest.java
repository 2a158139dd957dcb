package dev.strata.server.grpc;

import dev.strata.engine.EngineException;
import dev.strata.proto.v1.LeaderHint;
import dev.strata.server.kv.InvalidRequestException;
import dev.strata.server.raft.Member;
import dev.strata.server.raft.MembershipException;
import dev.strata.server.raft.StorageFullException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.RaftRetryFailureException;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorsTest {
    private static final RaftGroupMemberId MEMBER = RaftGroupMemberId.valueOf(RaftPeerId.valueOf("1"), RaftGroupId.randomId());
    private final Errors withLeader = new Errors(() -> Optional.of(new Member(2, "h:7111", "h:7110", false)));
    private final Errors noLeader = new Errors(Optional::empty);

    @Test
    void badRequestsAreInvalidArgumentWithTheirMessage() {
        StatusRuntimeException s = noLeader.toStatus(new CompletionException(
                new StateMachineException(MEMBER, new InvalidRequestException("key must not be empty"))));
        assertThat(s.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(s.getStatus().getDescription()).isEqualTo("key must not be empty");
    }

    @Test
    void noLeaderIsUnavailableWithTheLeaderInTheDetailsWhenKnown() {
        StatusRuntimeException s = withLeader.toStatus(new NotLeaderException(MEMBER, null, null));
        assertThat(s.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(s.getStatus().getDescription()).endsWith("the leader is node 2 at h:7110");
        com.google.rpc.Status details = StatusProto.fromThrowable(s);
        assertThat(details).isNotNull();
        assertThat(details.getDetailsList()).singleElement().satisfies(any ->
                assertThat(any.unpack(LeaderHint.class)).isEqualTo(LeaderHint.newBuilder().setMemberId(2).setEndpoint("h:7110").build()));

        StatusRuntimeException none = noLeader.toStatus(new RaftRetryFailureException(null, 12, null, new java.io.IOException("refused")));
        assertThat(none.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(none.getStatus().getDescription()).endsWith("no leader is known");
    }

    @Test
    void aBrokenLinkBetweenNodesIsUnavailable() {
        StatusRuntimeException s = noLeader.toStatus(new CompletionException(org.apache.ratis.thirdparty.io.grpc.Status.UNAVAILABLE
                .withDescription("Network closed for unknown reason").asRuntimeException()));
        assertThat(s.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(s.getStatus().getDescription()).contains("the link to another node failed", "Network closed");
    }

    @Test
    void timeoutsAreDeadlineExceededAndFullDisksResourceExhausted() {
        assertThat(noLeader.toStatus(new TimeoutException("took too long")).getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
        assertThat(noLeader.toStatus(new StorageFullException("disk full")).getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(noLeader.toStatus(new EngineException(EngineException.Code.NO_SPACE, "full")).getStatus().getCode())
                .isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(noLeader.toStatus(new EngineException(EngineException.Code.CORRUPTION, "000012.sst offset 4096")).getStatus().getCode())
                .isEqualTo(Status.Code.DATA_LOSS);
    }

    @Test
    void membershipConflictsGetTheirOwnCodes() {
        assertThat(noLeader.toStatus(new MembershipException(MembershipException.Reason.NO_SUCH_MEMBER, "x")).getStatus().getCode())
                .isEqualTo(Status.Code.NOT_FOUND);
        assertThat(noLeader.toStatus(new MembershipException(MembershipException.Reason.ALREADY_MEMBER, "x")).getStatus().getCode())
                .isEqualTo(Status.Code.ALREADY_EXISTS);
        assertThat(noLeader.toStatus(new MembershipException(MembershipException.Reason.WRONG_ROLE, "x")).getStatus().getCode())
                .isEqualTo(Status.Code.FAILED_PRECONDITION);
    }
}
