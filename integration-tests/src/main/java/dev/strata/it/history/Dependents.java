package dev.strata.it.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operations of a key's history that depend on its writes: those that must leave with a
 * write so that removing it cannot make a linearizable history non-linearizable, which would
 * invent a violation the history never had.
 *
 * <p>Why these: take a linearization and strip the removed operations from it. An operation that
 * remains sees a different state only where the last write before it was removed. A blind write
 * ({@code PUT}, {@code DELETE}) does not care; a CAS of unknown outcome that did nothing can be
 * left out as never applied. Every other operation there depends on the removed write {@code w}:
 * it is a read of {@code w}'s value, a CAS expecting that value, or a CAS whose compare failed (it
 * might hold without {@code w}, unless the value it expects was never the key's), and since it
 * was linearized after {@code w}, it returned at or after {@code w} was invoked. So removing,
 * with each removed write, every such operation (and, for a CAS among them that may have written,
 * its own dependents) keeps the stripped order a linearization.
 *
 * <p>Reads depend on nothing being kept: they change no state. Immutable once built.
 */
final class Dependents {
    /** For each value ({@code null} = absent), the operations that need the key to hold it. */
    private final Map<String, List<KeyOp>> observersByValue = new HashMap<>();
    /** The CAS operations whose compare failed but could have held, by return time. */
    private final List<KeyOp> failedCompares = new ArrayList<>();

    /** The dependencies among {@code ops}. */
    Dependents(Collection<KeyOp> ops) {
        Map<String, Long> firstWriteOf = new HashMap<>();
        for (KeyOp op : ops) {
            if (op.mayWrite() && op.written() != null) {
                firstWriteOf.merge(op.written(), op.invokedNanos(), Math::min);
            }
        }
        for (KeyOp op : ops) {
            if (op.observesValue()) {
                observersByValue.computeIfAbsent(op.observedValue(), v -> new ArrayList<>()).add(op);
            }
            // A compare that could not have held whatever happened depends on nothing: its
            // expected value was never the key's before it returned.
            boolean couldHaveHeld = op.expected() == null
                    || firstWriteOf.getOrDefault(op.expected(), Long.MAX_VALUE) <= op.returnNanos();
            if (op.failedCompare() && couldHaveHeld) {
                failedCompares.add(op);
            }
        }
        failedCompares.sort(Comparator.comparingLong(KeyOp::returnNanos));
    }

    /** Whether nothing depends on {@code op}, so that it can be removed alone. */
    boolean noneOn(KeyOp op) {
        return closure(List.of(op)).size() == 1;
    }

    /** {@code removed} and, transitively, every operation that depends on one of them. */
    Set<KeyOp> closure(Collection<KeyOp> removed) {
        Set<KeyOp> closure = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<KeyOp> pending = new ArrayDeque<>(removed);
        long earliestWrite = Long.MAX_VALUE;
        while (!pending.isEmpty()) {
            KeyOp op = pending.pop();
            if (!closure.add(op) || !op.mayWrite()) {
                continue;
            }
            earliestWrite = Math.min(earliestWrite, op.invokedNanos());
            for (KeyOp observer : observersByValue.getOrDefault(op.written(), List.of())) {
                if (observer.returnNanos() >= op.invokedNanos() && !closure.contains(observer)) {
                    pending.push(observer);
                }
            }
        }
        // A failed compare depends on every removed write it returned after; it writes nothing, so
        // nothing further depends on it.
        for (int i = failedCompares.size() - 1; i >= 0 && failedCompares.get(i).returnNanos() >= earliestWrite; i--) {
            closure.add(failedCompares.get(i));
        }
        return closure;
    }
}
