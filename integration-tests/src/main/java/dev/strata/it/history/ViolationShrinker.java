package dev.strata.it.history;

import java.util.List;
import java.util.Set;

/**
 * Shrinks a non-linearizable key history to a 1-minimal one with delta debugging (Zeller's
 * ddmin): remove chunks of operations, halving the chunk size when none can go, until no single
 * operation (with its dependents, below) can be removed with the rest staying non-linearizable.
 *
 * <p>An operation leaves with its {@link Dependents}. Removing a write alone could manufacture a
 * "violation" the history never had (a read of its value would be left without a source); with
 * its dependents, every removal keeps a linearizable history linearizable, so the result is a
 * witness: it is not linearizable, hence neither is the history it came from.
 *
 * <p>Thread-safe: it holds no state.
 */
final class ViolationShrinker {
    /**
     * The shrunk history, sorted as given; {@code minimal} is false when the step budget ran out
     * first or a check could not decide, so that some operation might still be removable.
     */
    record Shrunk(List<KeyOp> ops, boolean minimal) {}

    private ViolationShrinker() {}

    /**
     * Shrinks {@code ops}, spending at most {@code maxSteps} search steps in all. Chunks are runs of
     * consecutive operations, so {@code ops} sorted by time shrinks fastest.
     * REQUIRES: {@code ops} is not linearizable.
     *
     * @param maxStepsPerCheck the budget of one linearizability check; a check that runs out keeps
     *                         the operations it tried to remove
     */
    static Shrunk shrink(List<KeyOp> ops, long maxSteps, long maxStepsPerCheck) {
        List<KeyOp> current = ops;
        long left = maxSteps;
        int chunks = 2;
        boolean decided = true;
        while (current.size() > 1) {
            int size = current.size();
            chunks = Math.min(chunks, size);
            Dependents dependents = new Dependents(current);
            List<KeyOp> smaller = null;
            for (int c = 0; c < chunks && smaller == null; c++) {
                List<KeyOp> chunk = current.subList((int) ((long) c * size / chunks), (int) ((long) (c + 1) * size / chunks));
                Set<KeyOp> removed = dependents.closure(chunk);
                List<KeyOp> candidate = current.stream().filter(op -> !removed.contains(op)).toList();
                if (candidate.isEmpty()) {
                    continue;
                }
                if (left <= 0) {
                    return new Shrunk(current, false);
                }
                KeySearch.Result result = KeySearch.run(candidate, Math.min(left, maxStepsPerCheck));
                left -= result.steps();
                decided &= result.verdict() != LinearizabilityResult.Verdict.UNKNOWN;
                if (result.verdict() == LinearizabilityResult.Verdict.NOT_LINEARIZABLE) {
                    smaller = candidate;
                }
            }
            if (smaller != null) {
                current = smaller;
                chunks = Math.max(chunks - 1, 2);
            } else if (chunks == size) {
                break;
            } else {
                chunks = Math.min(2 * chunks, size);
            }
        }
        return new Shrunk(current, decided);
    }
}
