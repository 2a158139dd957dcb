package dev.strata.it.history;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides when a write can leave a key's history without making a linearizable history
 * non-linearizable, so that removing it never invents a violation.
 *
 * <p>Take a linearization of the history and strip a write {@code w} of value {@code x} from it.
 * Only operations linearized after {@code w} and before the next change of the key could notice,
 * and each of those returned at or after {@code w} was invoked. They are: a read of {@code x}, a
 * CAS expecting {@code x}, a CAS whose compare failed (it may have failed because of {@code w}),
 * or a CAS of unknown outcome that did nothing (it can be left out as never applied). So if no
 * remaining operation that observes {@code x} and no CAS with a failed compare returns at or after
 * {@code w}'s invocation, the stripped order is a linearization of the rest.
 *
 * <p>Reads can always leave: they change nothing. Not thread-safe; built for one set of
 * remaining operations.
 */
final class WriteRemoval {
    /** For each observed value ({@code null} = absent), the latest return among the operations that observe it. */
    private final Map<String, Long> lastObservation = new HashMap<>();
    private long lastFailedCompare = Long.MIN_VALUE;

    /** The rule for removing writes from a history that keeps (at most) {@code remaining}. */
    WriteRemoval(Collection<KeyOp> remaining) {
        for (KeyOp op : remaining) {
            if (op.observesValue()) {
                lastObservation.merge(op.observedValue(), op.returnNanos(), Math::max);
            }
            if (op.failedCompare()) {
                lastFailedCompare = Math.max(lastFailedCompare, op.returnNanos());
            }
        }
    }

    /** Whether {@code op} can be removed while the operations given at construction remain. */
    boolean allows(KeyOp op) {
        if (!op.mayWrite()) {
            return true;
        }
        long observedUntil = lastObservation.getOrDefault(op.written(), Long.MIN_VALUE);
        return observedUntil < op.invokedNanos() && lastFailedCompare < op.invokedNanos();
    }
}
