package dev.strata.it.workload;

import dev.strata.it.history.OpKind;
import dev.strata.it.history.Operation;
import dev.strata.it.history.Outcome;
import dev.strata.it.history.ReadConsistency;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Collects the operations of one run as clients complete them. A client calls {@link #invoke}
 * before it sends a request and one of the completion methods of the returned {@link Call}
 * after; the two times bracket the moment the operation took effect, if it did.
 */
public final class Recorder {
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentLinkedQueue<Operation> done = new ConcurrentLinkedQueue<>();

    /** An operation in flight: what was asked, and when. */
    public final class Call {
        private final long id = ids.incrementAndGet();
        private final long invoked = System.nanoTime();
        private final int client;
        private final OpKind kind;
        private final String key;
        private final String rangeEnd;
        private final String value;
        private final String expected;
        private final ReadConsistency consistency;
        private final long node;

        private Call(int client, OpKind kind, String key, String rangeEnd, String value, String expected,
                     ReadConsistency consistency, long node) {
            this.client = client;
            this.kind = kind;
            this.key = key;
            this.rangeEnd = rangeEnd;
            this.value = value;
            this.expected = expected;
            this.consistency = consistency;
            this.node = node;
        }

        /** A write (put, delete) that was applied at {@code revision}. */
        public void written(long revision) {
            finish(Outcome.OK, null, null, null, revision, 0, null);
        }

        /** A compare-and-set that ran, swapping or not. */
        public void swapped(boolean succeeded, long revision) {
            finish(Outcome.OK, null, null, succeeded, revision, 0, null);
        }

        /** A get that saw {@code value} (null: absent) with that key's {@code modRevision}. */
        public void read(String seen, long headerRevision, long modRevision) {
            finish(Outcome.OK, seen, null, null, headerRevision, modRevision, null);
        }

        /** A range that saw these keys and values. */
        public void ranged(Map<String, String> seen, long headerRevision) {
            finish(Outcome.OK, null, Map.copyOf(seen), null, headerRevision, 0, null);
        }

        /** Certainly not applied (a read that failed is just a read that saw nothing). */
        public void failed(String error) {
            finish(Outcome.FAIL, null, null, null, 0, 0, error);
        }

        /** A write that may or may not have been applied. */
        public void unknown(String error) {
            finish(Outcome.UNKNOWN, null, null, null, 0, 0, error);
        }

        private void finish(Outcome outcome, String seen, Map<String, String> range, Boolean swapped, long headerRevision,
                            long modRevision, String error) {
            done.add(new Operation(id, client, kind, key, rangeEnd, value, expected, consistency, node, invoked, System.nanoTime(),
                    outcome, seen, range, swapped, headerRevision, modRevision, error));
        }
    }

    public Call invoke(int client, OpKind kind, String key, String rangeEnd, String value, String expected,
                       ReadConsistency consistency, long node) {
        return new Call(client, kind, key, rangeEnd, value, expected, consistency, node);
    }

    /** Every completed operation, by invocation time. */
    public List<Operation> history() {
        List<Operation> ops = new ArrayList<>(done);
        ops.sort(Comparator.comparingLong(Operation::invokedNanos));
        return ops;
    }
}
