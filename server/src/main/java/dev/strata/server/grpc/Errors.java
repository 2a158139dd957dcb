package dev.strata.server.grpc;

import com.google.protobuf.Any;
import dev.strata.engine.EngineException;
import dev.strata.proto.v1.LeaderHint;
import dev.strata.server.kv.InvalidRequestException;
import dev.strata.server.raft.Member;
import dev.strata.server.raft.MembershipException;
import dev.strata.server.raft.NodeUnavailableException;
import dev.strata.server.raft.StorageFailedException;
import dev.strata.server.raft.StorageFullException;
import dev.strata.server.raft.WritesQueuedFullException;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.protocol.exceptions.GroupMismatchException;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.RaftRetryFailureException;
import org.apache.ratis.protocol.exceptions.ReadException;
import org.apache.ratis.protocol.exceptions.ReadIndexException;
import org.apache.ratis.protocol.exceptions.ReconfigurationInProgressException;
import org.apache.ratis.protocol.exceptions.ReconfigurationTimeoutException;
import org.apache.ratis.protocol.exceptions.ResourceUnavailableException;
import org.apache.ratis.protocol.exceptions.ServerNotReadyException;
import org.apache.ratis.protocol.exceptions.SetConfigurationException;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.protocol.exceptions.TimeoutIOException;
import org.apache.ratis.protocol.exceptions.TransferLeadershipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The one place failures become gRPC statuses:
 * <ul>
 *   <li>a bad request -> INVALID_ARGUMENT with the message that names the field and the limit;</li>
 *   <li>no leader, no quorum, a node that cannot serve -> UNAVAILABLE (retryable), with a
 *       {@link LeaderHint} in the status details and the leader in the message when known;</li>
 *   <li>a server-side timeout -> DEADLINE_EXCEEDED;</li>
 *   <li>a full disk, or more writes queued on a node than it may hold -> RESOURCE_EXHAUSTED;
 *       corrupt data -> DATA_LOSS;</li>
 *   <li>membership conflicts -> NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION or ABORTED.</li>
 * </ul>
 * Anything unexpected is INTERNAL and logged with its stack trace; expected conditions are not.
 */
final class Errors {
    private static final Logger LOG = LoggerFactory.getLogger(Errors.class);

    private final Supplier<Optional<Member>> leader;

    /** @param leader the leader this node knows of, if any (its client address may be "") */
    Errors(Supplier<Optional<Member>> leader) {
        this.leader = leader;
    }

    StatusRuntimeException toStatus(Throwable t) {
        Throwable e = unwrap(t);
        if (e instanceof StatusRuntimeException sre) {
            return sre;
        }
        if (e instanceof StatusException se) {
            return se.getStatus().asRuntimeException(se.getTrailers());
        }
        if (e instanceof InvalidRequestException) {
            return Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException();
        }
        if (e instanceof TimeoutException) {
            return Status.DEADLINE_EXCEEDED.withDescription(e.getMessage()).asRuntimeException();
        }
        if (e instanceof StorageFullException || e instanceof WritesQueuedFullException) {
            return Status.RESOURCE_EXHAUSTED.withDescription(e.getMessage()).asRuntimeException();
        }
        if (e instanceof MembershipException me) {
            Status s = switch (me.reason()) {
                case NO_SUCH_MEMBER -> Status.NOT_FOUND;
                case ALREADY_MEMBER -> Status.ALREADY_EXISTS;
                case WRONG_ROLE -> Status.FAILED_PRECONDITION;
            };
            return s.withDescription(e.getMessage()).asRuntimeException();
        }
        if (e instanceof SetConfigurationException || e instanceof ReconfigurationInProgressException
                || e instanceof RaftRetryFailureException && e.getCause() instanceof ReconfigurationInProgressException) {
            return Status.ABORTED.withDescription("the configuration changed meanwhile or is changing; retry: "
                    + e.getMessage()).asRuntimeException();
        }
        if (e instanceof ReconfigurationTimeoutException) {
            return Status.DEADLINE_EXCEEDED.withDescription(e.getMessage()).asRuntimeException();
        }
        if (e instanceof TransferLeadershipException) {
            return Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException();
        }
        if (e instanceof EngineException ee) {
            return switch (ee.code()) {
                case INVALID_ARGUMENT -> Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException();
                case NO_SPACE -> Status.RESOURCE_EXHAUSTED.withDescription(e.getMessage()).asRuntimeException();
                case CORRUPTION -> Status.DATA_LOSS.withDescription(e.getMessage()).asRuntimeException();
                case CLOSED, IO_ERROR, LOCKED -> unavailable(e.getMessage());
            };
        }
        if (e instanceof StorageFailedException || e instanceof NodeUnavailableException) {
            return unavailable(e.getMessage());
        }
        if (e instanceof NotLeaderException || e instanceof LeaderNotReadyException || e instanceof LeaderSteppingDownException
                || e instanceof ReadIndexException || e instanceof ReadException || e instanceof ServerNotReadyException) {
            return unavailable("no leader can serve this right now (" + e.getMessage() + ")");
        }
        if (e instanceof RaftRetryFailureException) {
            return unavailable("no leader answered: " + e.getMessage());
        }
        if (e instanceof AlreadyClosedException || e instanceof GroupMismatchException
                || e instanceof ResourceUnavailableException || e instanceof TimeoutIOException) {
            return unavailable(e.getMessage());
        }
        if (e instanceof IOException) {
            return unavailable(e.toString());
        }
        if (e instanceof org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException
                || e instanceof org.apache.ratis.thirdparty.io.grpc.StatusException) {
            // Ratis's own gRPC (shaded) carries only traffic between nodes: its failure is a
            // broken link to another node, not a fault of the request.
            return unavailable("the link to another node failed: " + e.getMessage());
        }
        LOG.warn("unexpected failure, answered INTERNAL", e);
        return Status.INTERNAL.withDescription(e.toString()).asRuntimeException();
    }

    /** UNAVAILABLE, naming the leader in the message and in a {@link LeaderHint} detail when this node knows it. */
    private StatusRuntimeException unavailable(String message) {
        Member known;
        try {
            known = leader.get().orElse(null);
        } catch (RuntimeException e) {
            // The node is closing and cannot say; the status is still UNAVAILABLE.
            LOG.debug("no leader hint: {}", e.toString());
            known = null;
        }
        if (known == null) {
            return Status.UNAVAILABLE.withDescription(message + "; no leader is known").asRuntimeException();
        }
        String full = message + "; the leader is node " + known.id()
                + (known.clientAddress().isEmpty() ? "" : " at " + known.clientAddress());
        com.google.rpc.Status status = com.google.rpc.Status.newBuilder()
                .setCode(Status.Code.UNAVAILABLE.value())
                .setMessage(full)
                .addDetails(Any.pack(LeaderHint.newBuilder().setMemberId(known.id()).setEndpoint(known.clientAddress()).build()))
                .build();
        return StatusProto.toStatusRuntimeException(status);
    }

    /** Strips future wrappers and Ratis' StateMachineException, which wraps what our state machine threw. */
    static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException
                || e instanceof StateMachineException) && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof RaftRetryFailureException && e.getCause() != null) {
            // The last attempt's failure says more than "retries exhausted" only when it is ours.
            Throwable last = unwrap(e.getCause());
            if (last instanceof InvalidRequestException || last instanceof StorageFullException || last instanceof StorageFailedException) {
                return last;
            }
        }
        return e;
    }
}
