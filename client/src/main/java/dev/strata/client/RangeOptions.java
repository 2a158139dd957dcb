package dev.strata.client;

/**
 * How a range is read: at most {@code limit} keys in all (0: no limit), fetched
 * {@code pageSize} at a time (0: the server's page limit), keys only or with values, at a
 * consistency. Immutable; each {@code with} method returns a changed copy.
 */
public record RangeOptions(long limit, int pageSize, boolean keysOnly, Consistency consistency) {
    public RangeOptions {
        if (limit < 0 || pageSize < 0) {
            throw new IllegalArgumentException("limit and page size must not be negative");
        }
        if (consistency == null) {
            throw new IllegalArgumentException("consistency must not be null");
        }
    }

    /** No limit, the server's page size, values included, linearizable. */
    public static RangeOptions defaults() {
        return new RangeOptions(0, 0, false, Consistency.LINEARIZABLE);
    }

    public RangeOptions withLimit(long n) {
        return new RangeOptions(n, pageSize, keysOnly, consistency);
    }

    public RangeOptions withPageSize(int n) {
        return new RangeOptions(limit, n, keysOnly, consistency);
    }

    public RangeOptions withKeysOnly() {
        return new RangeOptions(limit, pageSize, true, consistency);
    }

    public RangeOptions withConsistency(Consistency c) {
        return new RangeOptions(limit, pageSize, keysOnly, c);
    }
}
