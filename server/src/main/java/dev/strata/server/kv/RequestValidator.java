package dev.strata.server.kv;

import com.google.protobuf.MessageLite;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.v1.BatchOp;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.Compare;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RequestOp;
import dev.strata.proto.v1.TxnRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Checks requests before they are replicated: on the node that receives them (so the client
 * gets INVALID_ARGUMENT at once) and again in the state machine's {@code startTransaction}
 * on the leader (so nothing invalid reaches the log, whoever sent it). Every message names the
 * field and, for a limit, its value and the configuration key that sets it. Thread-safe.
 */
public final class RequestValidator {
    private final Limits limits;

    public RequestValidator(Limits limits) {
        this.limits = limits;
    }

    public Limits limits() {
        return limits;
    }

    public void put(PutRequest r) {
        requestSize(r);
        put("", r);
    }

    public void get(GetRequest r) {
        KeyRange.checkSingleKey("key", r.getKey());
    }

    public void delete(DeleteRequest r) {
        requestSize(r);
        KeyRange.select(r.getKey(), r.getRangeEnd(), r.getPrefix());
    }

    public void range(RangeRequest r) {
        range("", r);
    }

    public void txn(TxnRequest r) {
        requestSize(r);
        for (int i = 0; i < r.getCompareCount(); i++) {
            compare("compare[" + i + "]", r.getCompare(i));
        }
        branch("success", r.getSuccessList());
        branch("failure", r.getFailureList());
    }

    public void batch(BatchRequest r) {
        requestSize(r);
        WriteSet writes = new WriteSet("ops");
        for (int i = 0; i < r.getOpsCount(); i++) {
            BatchOp op = r.getOps(i);
            String where = "ops[" + i + "]";
            switch (op.getOpCase()) {
                case PUT -> writes.put(where, put(where + ".", op.getPut()));
                case DELETE -> writes.delete(where, KeyRange.select(op.getDelete().getKey(), op.getDelete().getRangeEnd(), op.getDelete().getPrefix()));
                case OP_NOT_SET -> throw new InvalidRequestException(where + " has no operation");
            }
        }
    }

    /**
     * Checks a log command as the leader's state machine receives it; every command of a batch
     * ({@code proposals}) alone, so a batch is as large as its writes allow.
     */
    public void command(Command c) {
        switch (c.getOpCase()) {
            case PUT -> put(c.getPut());
            case DELETE -> delete(c.getDelete());
            case TXN -> txn(c.getTxn());
            case BATCH -> batch(c.getBatch());
            case SET_MEMBER -> {
                if (c.getSetMember().getId() == 0) {
                    throw new InvalidRequestException("member id must be a positive number");
                }
            }
            case REMOVE_MEMBER -> {
                if (c.getRemoveMember() == 0) {
                    throw new InvalidRequestException("member id must be a positive number");
                }
            }
            case PROPOSALS -> {
                for (Command inner : c.getProposals().getCommandsList()) {
                    if (inner.getOpCase() == Command.OpCase.PROPOSALS) {
                        throw new InvalidRequestException("proposals must not nest");
                    }
                    command(inner);
                }
            }
            case OP_NOT_SET -> throw new InvalidRequestException("command has no operation");
        }
    }

    private byte[] put(String field, PutRequest r) {
        KeyRange.checkSingleKey(field + "key", r.getKey());
        if (r.getValue().size() > limits.maxValueSize()) {
            throw new InvalidRequestException(field + "value is " + r.getValue().size() + " bytes, the limit is "
                    + limits.maxValueSize() + " bytes (strata.server.max-value-size)");
        }
        return r.getKey().toByteArray();
    }

    private void range(String field, RangeRequest r) {
        KeyRange range = KeyRange.select(r.getKey(), r.getRangeEnd(), r.getPrefix());
        if (r.getLimit() < 0) {
            throw new InvalidRequestException(field + "limit must not be negative, was " + r.getLimit());
        }
        if (!r.getPageToken().isEmpty()) {
            PageToken.decode(r, range);
        }
    }

    private void compare(String where, Compare c) {
        KeyRange.checkSingleKey(where + ".key", c.getKey());
        Compare.OperandCase expected = switch (c.getTarget()) {
            case VALUE -> Compare.OperandCase.VALUE;
            case VERSION -> Compare.OperandCase.VERSION;
            case CREATE_REVISION -> Compare.OperandCase.CREATE_REVISION;
            case MOD_REVISION -> Compare.OperandCase.MOD_REVISION;
            case EXISTS -> Compare.OperandCase.OPERAND_NOT_SET;
            case UNRECOGNIZED -> throw new InvalidRequestException(where + ".target is not a known target");
        };
        if (c.getResult() == Compare.Result.UNRECOGNIZED) {
            throw new InvalidRequestException(where + ".result is not a known result");
        }
        if (c.getOperandCase() != Compare.OperandCase.OPERAND_NOT_SET && c.getOperandCase() != expected) {
            throw new InvalidRequestException(where + " compares " + c.getTarget() + " but sets the "
                    + c.getOperandCase().name().toLowerCase() + " operand");
        }
        if (c.getTarget() == Compare.Target.EXISTS
                && (c.getResult() == Compare.Result.LESS || c.getResult() == Compare.Result.GREATER)) {
            throw new InvalidRequestException(where + ": EXISTS takes EQUAL (the key exists) or NOT_EQUAL (it does not), not "
                    + c.getResult());
        }
    }

    private void branch(String name, List<RequestOp> ops) {
        WriteSet writes = new WriteSet(name);
        for (int i = 0; i < ops.size(); i++) {
            RequestOp op = ops.get(i);
            String where = name + "[" + i + "]";
            switch (op.getRequestCase()) {
                case PUT -> writes.put(where, put(where + ".put.", op.getPut()));
                case DELETE -> {
                    DeleteRequest d = op.getDelete();
                    writes.delete(where, KeyRange.select(d.getKey(), d.getRangeEnd(), d.getPrefix()));
                }
                case RANGE -> range(where + ".range.", op.getRange());
                case REQUEST_NOT_SET -> throw new InvalidRequestException(where + " has no operation");
            }
        }
    }

    private void requestSize(MessageLite r) {
        int size = r.getSerializedSize();
        if (size > limits.maxRequestSize()) {
            throw new InvalidRequestException("request is " + size + " bytes, the limit is " + limits.maxRequestSize()
                    + " bytes (strata.server.max-request-size)");
        }
    }

    /**
     * The keys one revision writes. As in etcd, a key may change at most once per revision, so
     * its version counts changes exactly: no key is put twice, and no put falls in a deleted range.
     */
    private static final class WriteSet {
        private final String scope;
        private final TreeSet<byte[]> puts = new TreeSet<>(Arrays::compareUnsigned);
        private final List<KeyRange> deletes = new ArrayList<>();

        WriteSet(String scope) {
            this.scope = scope;
        }

        void put(String where, byte[] key) {
            if (!puts.add(key)) {
                throw twice(where, key);
            }
            for (KeyRange d : deletes) {
                if (d.contains(key)) {
                    throw twice(where, key);
                }
            }
        }

        void delete(String where, KeyRange range) {
            var inside = range.to() == null ? puts.tailSet(range.from(), true) : puts.subSet(range.from(), true, range.to(), false);
            if (!inside.isEmpty()) {
                throw twice(where, inside.first());
            }
            deletes.add(range);
        }

        private InvalidRequestException twice(String where, byte[] key) {
            return new InvalidRequestException(where + " writes key " + Keys.describe(key) + " a second time in " + scope
                    + "; a key may be put or deleted once per request");
        }
    }
}
