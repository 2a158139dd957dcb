package dev.strata.it.history;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a fault-injection run was, stored with its history so a saved run can be understood and replayed.
 *
 * @param seed        the seed of the run's randomness
 * @param nemeses     the names of the fault injectors that ran
 * @param nodeCount   how many server nodes the cluster had
 * @param started     wall-clock time the run started
 * @param duration    how long it ran
 * @param faultEvents what the nemeses did, in the order they did it
 */
public record RunInfo(long seed, List<String> nemeses, int nodeCount, Instant started, Duration duration,
                      List<FaultEvent> faultEvents) {
    public RunInfo {
        nemeses = List.copyOf(nemeses);
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(duration, "duration");
        faultEvents = List.copyOf(faultEvents);
    }
}
