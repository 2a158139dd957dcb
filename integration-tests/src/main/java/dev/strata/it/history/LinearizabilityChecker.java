package dev.strata.it.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Checks that a history of a key-value store is linearizable: that there is one order of its
 * operations, each placed between its invocation and its completion, in which every read returns
 * what the writes before it left.
 *
 * <p>The model of a key: initially absent; {@code PUT} sets it, {@code DELETE} makes it absent,
 * {@code CAS} sets it when it holds the expected value (absent when none is expected) and reports
 * whether it did, {@code GET} returns it. A {@code FAIL} write did nothing; an {@code UNKNOWN} one
 * may take effect at any point after its invocation, or never; a read that is not {@code OK} says
 * nothing. {@link ReadConsistency#SERIALIZABLE} reads take no part: {@link SerializableReadChecker}
 * judges them.
 *
 * <p>Each key is checked on its own, which is exact for a store of independent keys
 * ({@link KeyHistories}). A {@code RANGE} counts as one read of each key of the history in its
 * bounds, absent where it returned none: that checks each key's part of a range, not that the
 * range saw all keys at one instant. Writes of unknown outcome are narrowed where the rest of the
 * history allows ({@link UnknownWrites}), then the key is searched ({@link KeySearch}) within a
 * {@link SearchBudget}; a key found not linearizable is shrunk to a minimal sub-history that is
 * still not linearizable ({@link ViolationShrinker}), the operations to look at.
 *
 * <p>Thread-safe: it holds no state. Deterministic: the same history gives the same result.
 */
public final class LinearizabilityChecker {
    private LinearizabilityChecker() {}

    /** Checks {@code history} with the default {@link SearchBudget}. */
    public static LinearizabilityResult check(List<Operation> history) {
        return check(history, SearchBudget.defaults());
    }

    /** Checks {@code history}, spending at most {@code budget} on each key. */
    public static LinearizabilityResult check(List<Operation> history, SearchBudget budget) {
        List<String> keys = new ArrayList<>();
        List<KeyViolation> violations = new ArrayList<>();
        List<LinearizabilityResult.UndecidedKey> undecided = new ArrayList<>();
        for (Map.Entry<String, List<KeyOp>> entry : KeyHistories.split(history).entrySet()) {
            String key = entry.getKey();
            List<KeyOp> ops = UnknownWrites.narrow(entry.getValue());
            keys.add(key);
            KeySearch.Result result = KeySearch.run(ops, budget.stepsPerKey());
            switch (result.verdict()) {
                case LINEARIZABLE -> { }
                case UNKNOWN -> undecided.add(new LinearizabilityResult.UndecidedKey(key, entry.getValue().size(), result.steps()));
                case NOT_LINEARIZABLE -> {
                    ViolationShrinker.Shrunk shrunk = ViolationShrinker.shrink(ops, budget.shrinkStepsPerKey(), budget.stepsPerKey());
                    violations.add(violation(key, shrunk, entry.getValue().size(), history));
                }
            }
        }
        return LinearizabilityResult.of(keys, violations, undecided);
    }

    private static KeyViolation violation(String key, ViolationShrinker.Shrunk shrunk, int operationsOnKey,
                                          List<Operation> history) {
        List<Operation> subHistory = shrunk.ops().stream()
                .map(KeyOp::source)
                .distinct()
                .sorted(Comparator.comparingLong(Operation::invokedNanos).thenComparingLong(Operation::id))
                .toList();
        List<Operation> failed = failedWritesOfObservedValues(key, shrunk.ops(), history);
        long origin = Math.min(OperationText.origin(subHistory), OperationText.origin(failed));
        StringBuilder report = new StringBuilder()
                .append("key ").append(OperationText.quote(key)).append(" is not linearizable; ")
                .append(shrunk.minimal() ? "a minimal sub-history" : "a sub-history (shrinking ran out of budget)")
                .append(", ").append(subHistory.size()).append(" of its ").append(operationsOnKey)
                .append(" operations, in ms from the first:\n")
                .append(OperationText.block(subHistory, origin, key));
        if (!failed.isEmpty()) {
            report.append("  writes of values read above that FAILed, so count as never applied:\n")
                    .append(OperationText.block(failed, origin, key));
        }
        return new KeyViolation(key, subHistory, shrunk.minimal(), operationsOnKey, report.toString());
    }

    /** The FAIL writes of {@code key} whose value an operation of {@code ops} observed: context for the reader. */
    private static List<Operation> failedWritesOfObservedValues(String key, List<KeyOp> ops, List<Operation> history) {
        Set<String> observed = new HashSet<>();
        ops.stream().filter(KeyOp::observesValue).map(KeyOp::observedValue).filter(Objects::nonNull).forEach(observed::add);
        return history.stream()
                .filter(op -> op.kind().isWrite() && op.outcome() == Outcome.FAIL && op.key().equals(key)
                        && observed.contains(op.value()))
                .toList();
    }
}
