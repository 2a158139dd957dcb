package dev.strata.cli;

/** What {@code strata} exits with, so scripts can branch on the outcome without parsing output. */
public final class ExitCode {
    /** The command did what was asked. */
    public static final int OK = 0;
    /** The cluster refused or could not serve the request (the message says why), or a local error. */
    public static final int FAILED = 1;
    /** The command line was wrong: unknown command or option, missing or malformed argument. */
    public static final int USAGE = 2;
    /** {@code get}: the key does not exist. */
    public static final int NOT_FOUND = 3;
    /** A write may or may not have been applied: its answer was lost. Read before retrying it. */
    public static final int OUTCOME_UNKNOWN = 4;

    private ExitCode() {}
}
