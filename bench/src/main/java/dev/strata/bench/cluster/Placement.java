package dev.strata.bench.cluster;

import java.util.Locale;

/**
 * Where the driver sends requests ({@code --to}): all to the leader, all to one follower, or
 * round-robin over every endpoint as a client without leader affinity would. A follower forwards
 * a write (and a linearizable read's ReadIndex) to the leader, so {@code follower} adds a hop on
 * both systems.
 */
enum Placement {
    LEADER,
    FOLLOWER,
    ALL;

    /** The command-line name. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
