package dev.strata.it.nemesis;

/**
 * What one {@link Nemesis#inject} did: a line for the run's fault log, and whether a fault is
 * now in place. A nemesis that found nothing to do (no follower could take leadership) says so,
 * so that a run's fault count holds only faults that happened.
 */
public record Injection(String description, boolean faulted) {
    /** A fault is in place, as {@code description} says. */
    public static Injection of(String description) {
        return new Injection(description, true);
    }

    /** Nothing was done, for the reason {@code why}. */
    public static Injection none(String why) {
        return new Injection(why, false);
    }
}
