package dev.strata.server.raft;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineException;
import dev.strata.engine.WriteBatch;
import dev.strata.proto.internal.v1.Command;
import dev.strata.server.kv.CommandApplier;
import dev.strata.server.kv.EngineView;
import dev.strata.server.kv.InvalidRequestException;
import dev.strata.server.kv.RequestValidator;
import dev.strata.server.kv.RevisionCache;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The write path of the state machine: checks a client's command on the leader, applies each
 * committed entry to the engine as one batch, and decides what a failure means.
 *
 * <p>A command that every node rejects the same way (it cannot happen after validation, but a
 * malformed entry would) fails its client and is skipped everywhere. An engine failure (I/O
 * error, corruption, full disk) is not deterministic: this node stops applying from that entry
 * on, so its engine never holds a later entry without an earlier one, reports itself unhealthy,
 * and recovers by restarting, when the log is replayed from the durable marker.
 *
 * <p>Runs on Ratis's state machine updater thread, except {@link #validate} (any gRPC thread).
 */
final class EntryApplier {
    private static final Logger LOG = LoggerFactory.getLogger(EntryApplier.class);

    private final AppliedEngine engine;
    private final RequestValidator validator;
    private final CommandApplier applier;
    private final MemberAddresses members;
    private final AppliedIndexWaiters waiters;
    private final Supplier<?> nodeId;
    private final NodeEvents events;

    /**
     * @param waiters reads waiting for an applied index, failed when this node stops applying
     * @param nodeId  this node's id, for messages (known once Ratis has initialized the state machine)
     * @param events  told when the engine fails
     */
    EntryApplier(AppliedEngine engine, RequestValidator validator, CommandApplier applier, MemberAddresses members,
                 AppliedIndexWaiters waiters, Supplier<?> nodeId, NodeEvents events) {
        this.engine = engine;
        this.validator = validator;
        this.applier = applier;
        this.members = members;
        this.waiters = waiters;
        this.nodeId = nodeId;
        this.events = events;
    }

    /**
     * The command of a client's write, checked on the leader before it reaches the log.
     *
     * @throws InvalidRequestException when the command is malformed or breaks a limit
     * @throws RuntimeException        the {@link #refusal} once this node stopped applying
     */
    Command validate(RaftClientRequest request) {
        Throwable failed = engine.failure();
        if (failed != null) {
            throw refusal(failed);
        }
        Command command;
        try {
            command = request.getMessage() instanceof CommandMessage local ? local.command()
                    : Command.parseFrom(request.getMessage().getContent().asReadOnlyByteBuffer());
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidRequestException("the request is not a Strata command: " + e.getMessage());
        }
        validator.command(command);
        return command;
    }

    /**
     * Applies the committed entry {@code trx} at {@code ti}: one batch carrying the entry's
     * marker, written as one step for readers. The reply answers the entry's commands; an entry
     * that is not a command is skipped, with a failed reply.
     *
     * @throws RuntimeException when the engine fails; pass it to {@link #fail}
     */
    CompletableFuture<Message> apply(TermIndex ti, TransactionContext trx) {
        Command command;
        try {
            command = trx.getStateMachineContext() instanceof Command c ? c
                    : Command.parseFrom(trx.getLogEntry().getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
        } catch (InvalidProtocolBufferException e) {
            // Every node reads the same bytes and fails the same way, so skipping keeps them identical.
            LOG.error("log entry {} is not a Strata command; skipped on every node: {}", ti, e.getMessage());
            return CompletableFuture.failedFuture(new InvalidRequestException("log entry " + ti + " is not a command"));
        }
        Engine e = engine.current();
        if (e == null) {
            throw new EngineException(EngineException.Code.CLOSED, "the engine is closed");
        }
        boolean proposals = command.getOpCase() == Command.OpCase.PROPOSALS;
        List<Command> commands = proposals ? command.getProposals().getCommandsList() : List.of(command);
        RevisionCache cache = engine.revisionCache();
        CommandApplier.EntryResult r = applier.applyEntry(EngineView.of(e, cache), commands, engine.revision());
        WriteBatch batch = r.batch().setAppliedMarker(AppliedMarker.encode(ti, r.revision()));
        engine.write(e, batch, ti.getIndex(), r.revision(), cache);
        cache.record(r.writes());
        members.applied(commands, r.outcomes());
        if (proposals) {
            return CompletableFuture.completedFuture(new OutcomesMessage(r.outcomes()));
        }
        // An entry written before batching: one command, answered as it was then.
        return switch (r.outcomes().get(0)) {
            case CommandApplier.Applied a -> CompletableFuture.completedFuture(message(a.response()));
            case CommandApplier.Refused refused -> CompletableFuture.failedFuture(refused.cause());
        };
    }

    /** Records the first engine failure and says what it means; later entries are refused. */
    RuntimeException fail(TermIndex ti, RuntimeException cause) {
        if (engine.recordFailure(cause)) {
            waiters.failAll(refusal(cause));
            TermIndex d = engine.lastKnownDurable();
            LOG.error("applying log entry {} failed, so this node applies nothing more. Fix the cause and restart "
                    + "it: it replays the log after {} (the entries are safe in the Raft log). Cause: {}",
                    ti, d == null ? "its start" : d, cause.getMessage(), cause);
            events.engineFailed();
        }
        return refusal(cause);
    }

    /** What a write or read is told once this node stopped applying because of {@code cause}. */
    RuntimeException refusal(Throwable cause) {
        String m = "node " + nodeId.get() + " cannot apply writes: " + cause.getMessage() + "; it needs a restart";
        return cause instanceof EngineException ee && ee.code() == EngineException.Code.NO_SPACE
                ? new StorageFullException(m) : new StorageFailedException(m);
    }

    static Message message(MessageLite response) {
        return Message.valueOf(UnsafeByteOperations.unsafeWrap(response.toByteArray()));
    }
}
