package dev.strata.it.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Narrows the writes of unknown outcome in a key's history before the search, without changing
 * its verdict. Such a write returns at infinity: it stays concurrent with everything after its
 * call, and each one doubles the configurations the search may have to visit, which can turn a
 * violation into an undecided key. Faults make them common, so:
 * <ul>
 *   <li>one that nothing {@link Dependents depends on} leaves: it can always be put back as never
 *       having happened, and taking it out cannot break a linearization (nor can taking out
 *       several, none depending on another);</li>
 *   <li>one whose value no other write of the key produces, and which a completed operation
 *       observed (a read of its value, a CAS that swapped from it), took effect before that
 *       operation returned: nothing else could have given it the value. Its return moves there.</li>
 * </ul>
 */
final class UnknownWrites {
    private UnknownWrites() {}

    /** {@code ops} narrowed as above, sorted by invocation. */
    static List<KeyOp> narrow(List<KeyOp> ops) {
        Dependents dependents = new Dependents(ops);
        Map<String, Integer> writers = new HashMap<>();
        Map<String, Long> firstObservedReturn = new HashMap<>();
        for (KeyOp op : ops) {
            if (op.mayWrite()) {
                writers.merge(op.written(), 1, Integer::sum);
            }
            if (op.observesValue() && !op.unknownOutcome()) {
                firstObservedReturn.merge(op.observedValue(), op.returnNanos(), Math::min);
            }
        }
        List<KeyOp> narrowed = new ArrayList<>(ops.size());
        for (KeyOp op : ops) {
            if (!op.unknownOutcome()) {
                narrowed.add(op);
            } else if (!dependents.noneOn(op)) {
                Long observed = firstObservedReturn.get(op.written());
                // Absent is never unique: it is also the initial state.
                boolean unique = op.written() != null && writers.get(op.written()) == 1;
                narrowed.add(unique && observed != null ? op.returningAt(Math.max(observed, op.invokedNanos())) : op);
            }
        }
        narrowed.sort(Comparator.comparingLong(KeyOp::invokedNanos).thenComparingLong(op -> op.source().id()));
        return narrowed;
    }
}
