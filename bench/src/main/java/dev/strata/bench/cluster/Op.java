package dev.strata.bench.cluster;

import java.util.Locale;

/**
 * An operation the driver measures, named on the command line as {@code put}, {@code get}
 * (linearizable) or {@code sget} (serializable). Both systems give a get the same meaning:
 * linearizable is a Raft ReadIndex round before the local read (etcd's default Range, Strata's
 * default Get), serializable a local read of whatever the node answering has applied.
 */
enum Op {
    PUT,
    GET,
    SGET;

    /** The command-line name. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    boolean isRead() {
        return this != PUT;
    }

    /** Whether a read must be linearizable; false for {@link #SGET} (and meaningless for {@link #PUT}). */
    boolean linearizable() {
        return this == GET;
    }
}
