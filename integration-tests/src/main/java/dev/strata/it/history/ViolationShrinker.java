package dev.strata.it.history;

import java.util.ArrayList;
import java.util.List;

/**
 * Shrinks a non-linearizable key history to a 1-minimal one with delta debugging (Zeller's
 * ddmin): remove chunks of operations, halving the chunk size when none can go, until no single
 * operation can be removed with the rest staying non-linearizable.
 *
 * <p>Only removals {@link WriteRemoval} allows are tried. Each keeps a linearizable history
 * linearizable, so the result is a witness: it is not linearizable, hence neither is the history
 * it came from, and its operations are the ones to look at. Dropping, say, the write of a value
 * some read returned would produce a "violation" the history never had.
 *
 * <p>Not thread-safe; each call is independent.
 */
final class ViolationShrinker {
    /**
     * The shrunk history; {@code minimal} is false when the step budget ran out first or a check
     * could not decide, so that some single operation might still be removable.
     */
    record Shrunk(List<KeyOp> ops, boolean minimal) {}

    private ViolationShrinker() {}

    /**
     * Shrinks {@code ops}, spending at most {@code maxSteps} search steps in all.
     * REQUIRES: {@code ops} is not linearizable.
     *
     * @param maxStepsPerCheck the budget of one linearizability check; a check that runs out
     *                         keeps the operations it tried to remove
     */
    static Shrunk shrink(List<KeyOp> ops, long maxSteps, long maxStepsPerCheck) {
        List<KeyOp> current = ops;
        long left = maxSteps;
        int chunks = 2;
        boolean decided = true;
        while (current.size() > 1) {
            int size = current.size();
            chunks = Math.min(chunks, size);
            boolean removed = false;
            for (int c = 0; c < chunks && !removed; c++) {
                int from = (int) ((long) c * size / chunks);
                int to = (int) ((long) (c + 1) * size / chunks);
                List<KeyOp> candidate = new ArrayList<>(size - (to - from));
                candidate.addAll(current.subList(0, from));
                candidate.addAll(current.subList(to, size));
                if (!removable(current.subList(from, to), candidate)) {
                    continue;
                }
                if (left <= 0) {
                    return new Shrunk(current, false);
                }
                KeySearch.Result result = KeySearch.run(candidate, Math.min(left, maxStepsPerCheck));
                left -= result.steps();
                decided &= result.verdict() != LinearizabilityResult.Verdict.UNKNOWN;
                if (result.verdict() == LinearizabilityResult.Verdict.NOT_LINEARIZABLE) {
                    current = candidate;
                    chunks = Math.max(chunks - 1, 2);
                    removed = true;
                }
            }
            if (!removed) {
                if (chunks == size) {
                    break;
                }
                chunks = Math.min(2 * chunks, size);
            }
        }
        return new Shrunk(current, decided);
    }

    /**
     * Whether {@code chunk} may leave while {@code rest} stays: its reads first, then its writes one
     * by one, each judged against everything that might still be there.
     */
    private static boolean removable(List<KeyOp> chunk, List<KeyOp> rest) {
        List<KeyOp> mayRemain = new ArrayList<>(rest);
        for (KeyOp op : chunk) {
            if (op.mayWrite()) {
                mayRemain.add(op);
            }
        }
        WriteRemoval rule = new WriteRemoval(mayRemain);
        return chunk.stream().allMatch(rule::allows);
    }
}
