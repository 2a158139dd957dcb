package dev.strata.it.history;

import java.util.List;

/**
 * What {@link LinearizabilityChecker} found in a history.
 *
 * @param verdict       {@code NOT_LINEARIZABLE} if any key is; otherwise {@code UNKNOWN} if any
 *                      key's search ran out of budget; otherwise {@code LINEARIZABLE}
 * @param keysChecked   every key with a sub-history to check, sorted
 * @param violations    the keys found not linearizable, sorted by key
 * @param undecidedKeys the keys whose search ran out of budget, sorted by key
 */
public record LinearizabilityResult(Verdict verdict, List<String> keysChecked, List<KeyViolation> violations,
                                    List<UndecidedKey> undecidedKeys) {

    /** The checker's answer for a key, and for the history. */
    public enum Verdict {
        LINEARIZABLE,
        NOT_LINEARIZABLE,
        /** The search ran out of budget: neither a linearization nor a proof there is none. */
        UNKNOWN
    }

    /** A key the search gave up on after {@code steps} steps over its {@code operations}. */
    public record UndecidedKey(String key, int operations, long steps) {}

    public LinearizabilityResult {
        keysChecked = List.copyOf(keysChecked);
        violations = List.copyOf(violations);
        undecidedKeys = List.copyOf(undecidedKeys);
    }

    static LinearizabilityResult of(List<String> keysChecked, List<KeyViolation> violations,
                                    List<UndecidedKey> undecidedKeys) {
        Verdict verdict = !violations.isEmpty() ? Verdict.NOT_LINEARIZABLE
                : !undecidedKeys.isEmpty() ? Verdict.UNKNOWN
                : Verdict.LINEARIZABLE;
        return new LinearizabilityResult(verdict, keysChecked, violations, undecidedKeys);
    }

    /** Whether every key was shown linearizable. */
    public boolean linearizable() {
        return verdict == Verdict.LINEARIZABLE;
    }

    /** The verdict, then each violation's report and each undecided key, for people. */
    public String report() {
        StringBuilder out = new StringBuilder()
                .append("linearizability: ").append(verdict).append(" (").append(keysChecked.size()).append(" keys checked, ")
                .append(violations.size()).append(" not linearizable, ").append(undecidedKeys.size()).append(" undecided)\n");
        violations.forEach(v -> out.append(v.report()));
        undecidedKeys.forEach(u -> out.append("key ").append(OperationText.quote(u.key()))
                .append(" is undecided: the search gave up after ").append(u.steps()).append(" steps over ")
                .append(u.operations()).append(" operations (raise the search budget's steps per key)\n"));
        return out.toString();
    }
}
