package dev.strata.bench.cluster;

/**
 * Sends operation number {@code i} of a run: which key, value and endpoint follow from {@code i}
 * alone ({@link Keyspace}, {@link Route}), so the loops need not know what they drive.
 * {@code done} must run exactly once, on any thread.
 */
@FunctionalInterface
interface Issuer {
    void issue(long i, KvTarget.Completion done);

    /** The issuer of {@code op} against {@code target} along {@code route}, with {@code keys}' keys and values. */
    static Issuer of(KvTarget target, Op op, Route route, Keyspace keys) {
        return switch (op) {
            case PUT -> (i, done) -> target.put(route.endpointOf(i), keys.key(i), keys.value(i), done);
            case GET, SGET -> (i, done) -> target.get(route.endpointOf(i), keys.key(i), op.linearizable(), done);
        };
    }
}
