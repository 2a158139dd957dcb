package dev.strata.client;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.Compare;
import dev.strata.proto.v1.TxnRequest;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A transaction: compares on keys, then the {@code then} operations when all hold or the
 * {@code orElse} ones when one does not, atomically at one revision, as etcd's Txn:
 * <pre>{@code
 * TxnResult r = client.txn()
 *         .ifVersion("config").equalTo(3)
 *         .then(Op.put("config", "v4"))
 *         .orElse(Op.get("config"))
 *         .commit();
 * }</pre>
 * Within a branch a key may be written at most once. A txn is never retried once it may have
 * reached the cluster: a failure then is an {@link OutcomeUnknownException}.
 */
public final class Txn {
    private final AsyncStrataClient client;
    private final TxnRequest.Builder request = TxnRequest.newBuilder();

    Txn(AsyncStrataClient client) {
        this.client = client;
    }

    /** Compares the key's version (changes since its creation; 0 when absent). */
    public NumberCompare ifVersion(byte[] key) {
        return new NumberCompare(key, Compare.Target.VERSION, Compare.Builder::setVersion);
    }

    public NumberCompare ifVersion(String key) {
        return ifVersion(KeyRange.utf8(key));
    }

    /** Compares the revision that created the key (0 when absent). */
    public NumberCompare ifCreateRevision(byte[] key) {
        return new NumberCompare(key, Compare.Target.CREATE_REVISION, Compare.Builder::setCreateRevision);
    }

    /** Compares the revision that last changed the key (0 when absent). */
    public NumberCompare ifModRevision(byte[] key) {
        return new NumberCompare(key, Compare.Target.MOD_REVISION, Compare.Builder::setModRevision);
    }

    public NumberCompare ifModRevision(String key) {
        return ifModRevision(KeyRange.utf8(key));
    }

    /** Compares the key's value; any value compare on an absent key is false, as in etcd. */
    public ValueCompare ifValue(byte[] key) {
        return new ValueCompare(key);
    }

    public ValueCompare ifValue(String key) {
        return ifValue(KeyRange.utf8(key));
    }

    /** Holds when the key exists. */
    public Txn ifExists(byte[] key) {
        return add(key, Compare.Target.EXISTS, Compare.Result.EQUAL, c -> { });
    }

    /** Holds when the key does not exist. */
    public Txn ifAbsent(byte[] key) {
        return add(key, Compare.Target.EXISTS, Compare.Result.NOT_EQUAL, c -> { });
    }

    public Txn ifAbsent(String key) {
        return ifAbsent(KeyRange.utf8(key));
    }

    /** Operations to run when every compare holds. */
    public Txn then(Op... ops) {
        for (Op op : ops) {
            request.addSuccess(op.request);
        }
        return this;
    }

    /** Operations to run when a compare does not hold. */
    public Txn orElse(Op... ops) {
        for (Op op : ops) {
            request.addFailure(op.request);
        }
        return this;
    }

    /** Runs the txn and waits for its result. */
    public TxnResult commit() {
        return AsyncStrataClient.await(commitAsync());
    }

    public CompletableFuture<TxnResult> commitAsync() {
        return client.txn(request.build());
    }

    private Txn add(byte[] key, Compare.Target target, Compare.Result result, Consumer<Compare.Builder> operand) {
        Compare.Builder c = Compare.newBuilder().setKey(ByteString.copyFrom(key)).setTarget(target).setResult(result);
        operand.accept(c);
        request.addCompare(c);
        return this;
    }

    /** Completes a compare on a number (version or revision). */
    public final class NumberCompare {
        private final byte[] key;
        private final Compare.Target target;
        private final BiConsumer<Compare.Builder, Long> setter;

        private NumberCompare(byte[] key, Compare.Target target, BiConsumer<Compare.Builder, Long> setter) {
            this.key = key.clone();
            this.target = target;
            this.setter = setter;
        }

        public Txn equalTo(long n) {
            return add(key, target, Compare.Result.EQUAL, c -> setter.accept(c, n));
        }

        public Txn notEqualTo(long n) {
            return add(key, target, Compare.Result.NOT_EQUAL, c -> setter.accept(c, n));
        }

        public Txn lessThan(long n) {
            return add(key, target, Compare.Result.LESS, c -> setter.accept(c, n));
        }

        public Txn greaterThan(long n) {
            return add(key, target, Compare.Result.GREATER, c -> setter.accept(c, n));
        }
    }

    /** Completes a compare on a value (unsigned byte order). */
    public final class ValueCompare {
        private final byte[] key;

        private ValueCompare(byte[] key) {
            this.key = key.clone();
        }

        public Txn equalTo(byte[] value) {
            return compare(Compare.Result.EQUAL, value);
        }

        public Txn equalTo(String value) {
            return equalTo(KeyRange.utf8(value));
        }

        public Txn notEqualTo(byte[] value) {
            return compare(Compare.Result.NOT_EQUAL, value);
        }

        public Txn lessThan(byte[] value) {
            return compare(Compare.Result.LESS, value);
        }

        public Txn greaterThan(byte[] value) {
            return compare(Compare.Result.GREATER, value);
        }

        private Txn compare(Compare.Result result, byte[] value) {
            ByteString v = ByteString.copyFrom(value);
            return add(key, Compare.Target.VALUE, result, c -> c.setValue(v));
        }
    }
}
