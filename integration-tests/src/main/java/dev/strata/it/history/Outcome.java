package dev.strata.it.history;

/** What a client learned about its operation. */
public enum Outcome {
    /** The cluster answered; the operation took effect and its results are recorded. */
    OK,
    /** The operation certainly did not take effect (the cluster refused it before applying it). */
    FAIL,
    /**
     * The answer was lost (timeout, broken connection): the operation may have taken effect,
     * at any point after it was invoked, or never.
     */
    UNKNOWN
}
