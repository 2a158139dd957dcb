package dev.strata.it.nemesis;

/**
 * A named fault: {@link #inject} starts it, {@link #heal} ends it. Between the two the cluster
 * may be unavailable; after heal it must recover by itself (a restarted node catches up, a
 * healed partition reconnects). Each returns a line for the run's fault log.
 */
public interface Nemesis {
    String name();

    /** Starts the fault; returns what it did, or why it did nothing. */
    Injection inject(FaultContext context);

    String heal(FaultContext context);
}
