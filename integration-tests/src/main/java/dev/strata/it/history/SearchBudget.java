package dev.strata.it.history;

/**
 * How much work {@link LinearizabilityChecker} may spend on one key, so that a pathological history
 * ends in an {@code UNKNOWN} verdict instead of a hung build. A step examines one call or return
 * event, a fraction of a microsecond; configurations cached are far fewer than steps.
 *
 * @param stepsPerKey       the search for a linearization of one key's history. Default
 *                          {@value #DEFAULT_STEPS_PER_KEY} (a few seconds): a run's few thousand
 *                          operations over a dozen keys take thousands of steps per key; proving
 *                          a violation among many overlapping writes of unknown outcome can take
 *                          millions.
 * @param shrinkStepsPerKey all the searches that shrink one key's violation to a minimal
 *                          sub-history. Default {@value #DEFAULT_SHRINK_STEPS_PER_KEY}; when it
 *                          runs out the violation is reported as shrunk so far.
 * @throws IllegalArgumentException if a budget is not positive
 */
public record SearchBudget(long stepsPerKey, long shrinkStepsPerKey) {
    public static final long DEFAULT_STEPS_PER_KEY = 10_000_000;
    public static final long DEFAULT_SHRINK_STEPS_PER_KEY = 20_000_000;

    public SearchBudget {
        if (stepsPerKey <= 0) {
            throw new IllegalArgumentException("stepsPerKey must be positive: " + stepsPerKey);
        }
        if (shrinkStepsPerKey <= 0) {
            throw new IllegalArgumentException("shrinkStepsPerKey must be positive: " + shrinkStepsPerKey);
        }
    }

    /** The default budgets. */
    public static SearchBudget defaults() {
        return new SearchBudget(DEFAULT_STEPS_PER_KEY, DEFAULT_SHRINK_STEPS_PER_KEY);
    }
}
