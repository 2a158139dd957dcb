package dev.strata.bench.cluster;

import java.time.Duration;
import java.util.Map;

/**
 * Writes every key of a keyspace once, through the leader, so the gets that follow read keys that
 * exist (the same keys and values on both systems).
 *
 * @param round     the round it preceded (0: the warm-up pass, or the cluster command)
 * @param keys      keys written
 * @param seconds   how long it took
 * @param failures  the puts that failed, by name (a get of such a key may then fail with MISSING_KEY)
 */
record Preload(String system, int round, int keys, int valueSize, double seconds, Map<String, Long> failures) {
    private static final int IN_FLIGHT = 64;

    /** Runs the preload of {@code keyspace} on {@code target}. */
    static Preload run(KvTarget target, Keyspace keyspace, Driver driver, int round) throws InterruptedException {
        Route leader = driver.route(target, Placement.LEADER);
        Duration drainLimit = driver.drainLimit();
        Issuer issuer = (i, done) -> target.put(leader.endpointOf(i), keyspace.keyNumber((int) i), keyspace.value(i), done);
        Outcomes outcomes = new Outcomes();
        long start = System.nanoTime();
        // Measured from the start, never cut short by time: it ends when every key was written once.
        Window window = new Window(start, start, start + Duration.ofDays(1).toNanos());
        new ClosedLoop(issuer, window, keyspace.keys(), IN_FLIGHT, outcomes).run(drainLimit);
        return new Preload(target.system(), round, keyspace.keys(), keyspace.valueSize(), (System.nanoTime() - start) / 1e9,
                outcomes.failureCounts());
    }

    long failed() {
        return failures.values().stream().mapToLong(Long::longValue).sum();
    }
}
