package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import com.google.protobuf.Empty;
import com.google.protobuf.MessageLite;
import dev.strata.engine.WriteBatch;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.v1.BatchOp;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.BatchResponse;
import dev.strata.proto.v1.Compare;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.DeleteResponse;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.RequestOp;
import dev.strata.proto.v1.ResponseOp;
import dev.strata.proto.v1.TxnRequest;
import dev.strata.proto.v1.TxnResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the commands of a log entry into the engine writes they make and the responses their
 * clients get, following etcd's revision rules (see {@code kv.proto}): each KV command takes
 * the next revision, and every key it changes gets that revision as mod_revision.
 * Deterministic, so every node computes the same batch. Only the apply thread calls it; it
 * reads the engine directly because nothing else writes while it runs.
 */
public final class CommandApplier {
    private final KvReader reader;

    public CommandApplier(KvReader reader) {
        this.reader = reader;
    }

    /** What applying a command does: the engine writes and the response for its client. */
    public record Result(WriteBatch batch, MessageLite response) {}

    /** What one command of a log entry came to. */
    public sealed interface Outcome {}

    /** The command was applied; {@code response} is what its client gets. */
    public record Applied(MessageLite response) implements Outcome {}

    /** The command was refused the same way on every node and wrote nothing. */
    public record Refused(InvalidRequestException cause) implements Outcome {}

    /**
     * What applying a whole log entry does: one engine batch with every command's writes, each
     * command's outcome in order, the revision after the entry, and its user-key writes (a null
     * value is a delete) for {@link RevisionCache#record}.
     */
    public record EntryResult(WriteBatch batch, List<Outcome> outcomes, long revision, Map<byte[], StoredValue> writes) {}

    /**
     * Applies a put, delete, txn or batch command at {@code revision}.
     *
     * @throws IllegalArgumentException for a command that is not a KV command
     * @throws InvalidRequestException  when a Txn range carries a bad page token (validated
     *         before replication, so only a changed validator could get here)
     */
    public Result apply(KvView state, Command command, long revision) {
        PendingWrites view = new PendingWrites(state);
        MessageLite response = applyKv(view, command, revision);
        return new Result(view.toBatch(), response);
    }

    /**
     * Applies the commands of one log entry in order, over {@code state} as it was after
     * {@code revision}: each KV command takes the next revision and sees the writes of the
     * commands before it; a member record takes none. A command refused with
     * {@link InvalidRequestException} writes nothing and takes no revision, and the others
     * still apply. Deterministic: every node computes the same batch and outcomes.
     *
     * @throws IllegalArgumentException for a command that is neither a KV nor a member command
     *         (the leader's validation keeps those out of the log)
     */
    public EntryResult applyEntry(KvView state, List<Command> commands, long revision) {
        PendingWrites entry = new PendingWrites(state);
        List<Outcome> outcomes = new ArrayList<>(commands.size());
        long current = revision;
        for (Command c : commands) {
            switch (c.getOpCase()) {
                case SET_MEMBER -> {
                    entry.putMeta(KeySpace.member(c.getSetMember().getId()), c.getSetMember().toByteArray());
                    outcomes.add(new Applied(Empty.getDefaultInstance()));
                }
                case REMOVE_MEMBER -> {
                    entry.putMeta(KeySpace.member(c.getRemoveMember()), null);
                    outcomes.add(new Applied(Empty.getDefaultInstance()));
                }
                default -> {
                    PendingWrites own = new PendingWrites(entry);
                    try {
                        MessageLite response = applyKv(own, c, current + 1);
                        entry.absorb(own);
                        current++;
                        outcomes.add(new Applied(response));
                    } catch (InvalidRequestException e) {
                        outcomes.add(new Refused(e));
                    }
                }
            }
        }
        return new EntryResult(entry.toBatch(), outcomes, current, entry.userWrites());
    }

    private MessageLite applyKv(PendingWrites view, Command command, long revision) {
        return switch (command.getOpCase()) {
            case PUT -> put(view, command.getPut(), revision);
            case DELETE -> delete(view, command.getDelete(), revision);
            case TXN -> txn(view, command.getTxn(), revision);
            case BATCH -> batch(view, command.getBatch(), revision);
            default -> throw new IllegalArgumentException("not a KV command: " + command.getOpCase());
        };
    }

    private static PutResponse put(PendingWrites view, PutRequest r, long revision) {
        byte[] key = r.getKey().toByteArray();
        PutResponse.Builder out = PutResponse.newBuilder().setHeader(KvReader.header(revision));
        if (r.getPrevKv()) {
            StoredValue previous = view.get(key);
            view.put(key, StoredValue.afterPut(previous == null ? null : previous.revisions(), revision, r.getValue()));
            if (previous != null) {
                out.setPrevKv(previous.toKeyValue(key, false));
            }
        } else {
            // Only the revisions are needed, which the revision cache usually has without an engine read.
            view.put(key, StoredValue.afterPut(view.revisions(key), revision, r.getValue()));
        }
        return out.build();
    }

    private static DeleteResponse delete(PendingWrites view, DeleteRequest r, long revision) {
        KeyRange range = KeyRange.select(r.getKey(), r.getRangeEnd(), r.getPrefix());
        DeleteResponse.Builder out = DeleteResponse.newBuilder().setHeader(KvReader.header(revision));
        long deleted = 0;
        if (range.single()) {
            byte[] key = range.from();
            boolean present;
            if (r.getPrevKv()) {
                StoredValue previous = view.get(key);
                present = previous != null;
                if (present) {
                    out.addPrevKvs(previous.toKeyValue(key, false));
                }
            } else {
                present = view.revisions(key) != null; // no value needed: the revision cache may answer
            }
            if (present) {
                view.delete(key);
                deleted = 1;
            }
        } else {
            // Collect first: the cursor reads the pending writes, which deleting changes.
            List<KvView.Entry> victims = new ArrayList<>();
            try (KvView.Cursor c = view.scan(range.from(), range.to())) {
                c.forEachRemaining(victims::add);
            }
            for (KvView.Entry e : victims) {
                view.delete(e.key());
                if (r.getPrevKv()) {
                    out.addPrevKvs(e.value().toKeyValue(e.key(), false));
                }
            }
            deleted = victims.size();
        }
        return out.setDeleted(deleted).build();
    }

    private TxnResponse txn(PendingWrites view, TxnRequest r, long revision) {
        boolean succeeded = true;
        for (Compare c : r.getCompareList()) {
            succeeded &= holds(view, c);
        }
        TxnResponse.Builder out = TxnResponse.newBuilder().setHeader(KvReader.header(revision)).setSucceeded(succeeded);
        for (RequestOp op : succeeded ? r.getSuccessList() : r.getFailureList()) {
            out.addResponses(switch (op.getRequestCase()) {
                case PUT -> ResponseOp.newBuilder().setPut(put(view, op.getPut(), revision)).build();
                case DELETE -> ResponseOp.newBuilder().setDelete(delete(view, op.getDelete(), revision)).build();
                case RANGE -> ResponseOp.newBuilder().setRange(reader.range(view, op.getRange(), revision)).build();
                case REQUEST_NOT_SET -> throw new IllegalArgumentException("txn operation without a request");
            });
        }
        return out.build();
    }

    private static BatchResponse batch(PendingWrites view, BatchRequest r, long revision) {
        BatchResponse.Builder out = BatchResponse.newBuilder().setHeader(KvReader.header(revision));
        for (BatchOp op : r.getOpsList()) {
            out.addResponses(switch (op.getOpCase()) {
                case PUT -> ResponseOp.newBuilder().setPut(put(view, op.getPut(), revision)).build();
                case DELETE -> ResponseOp.newBuilder().setDelete(delete(view, op.getDelete(), revision)).build();
                case OP_NOT_SET -> throw new IllegalArgumentException("batch operation without a request");
            });
        }
        return out.build();
    }

    /**
     * etcd's compare: an absent key has version and revisions 0; a VALUE compare on an absent
     * key is false whatever the result; EXISTS holds (EQUAL) when the key is there.
     */
    static boolean holds(KvView view, Compare c) {
        StoredValue v = view.get(c.getKey().toByteArray());
        if (c.getTarget() == Compare.Target.EXISTS) {
            return (v != null) == (c.getResult() == Compare.Result.EQUAL);
        }
        if (v == null && c.getTarget() == Compare.Target.VALUE) {
            return false;
        }
        int cmp = switch (c.getTarget()) {
            case VALUE -> ByteString.unsignedLexicographicalComparator().compare(v.value(), c.getValue());
            case VERSION -> Long.compare(v == null ? 0 : v.version(), c.getVersion());
            case CREATE_REVISION -> Long.compare(v == null ? 0 : v.createRevision(), c.getCreateRevision());
            case MOD_REVISION -> Long.compare(v == null ? 0 : v.modRevision(), c.getModRevision());
            case EXISTS, UNRECOGNIZED -> throw new IllegalArgumentException("compare target " + c.getTarget());
        };
        return switch (c.getResult()) {
            case EQUAL -> cmp == 0;
            case NOT_EQUAL -> cmp != 0;
            case LESS -> cmp < 0;
            case GREATER -> cmp > 0;
            case UNRECOGNIZED -> throw new IllegalArgumentException("compare result " + c.getResult());
        };
    }
}
