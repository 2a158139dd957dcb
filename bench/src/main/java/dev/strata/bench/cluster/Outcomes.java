package dev.strata.bench.cluster;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the measured operations of one run came to: the latency of each success in a histogram
 * (nanoseconds), and a count per failure name. A failure never enters the histogram, and a
 * success never enters a failure count, so neither figure hides the other.
 *
 * <p>Thread-safe: completions record from any thread, wait-free.
 */
final class Outcomes {
    private final Recorder latencies = new Recorder(3);
    private final LongAdder successes = new LongAdder();
    private final LongAdder successesInWindow = new LongAdder();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();

    /**
     * Records the completion of one operation: a success of {@code nanos} when {@code failure}
     * is null, else a failure under that name.
     *
     * @param inWindow whether a success counts toward throughput (it was answered inside the
     *                 measured window, or the loop counts by intended start; see the loops)
     */
    void completed(String failure, long nanos, boolean inWindow) {
        if (failure == null) {
            latencies.recordValue(Math.max(0, nanos));
            successes.increment();
            if (inWindow) {
                successesInWindow.increment();
            }
        } else {
            failures.computeIfAbsent(failure, k -> new LongAdder()).increment();
        }
    }

    /** Records {@code count} failures under {@code name}. */
    void failures(String name, long count) {
        if (count > 0) {
            failures.computeIfAbsent(name, k -> new LongAdder()).add(count);
        }
    }

    /** Every success recorded: the count of the latency histogram. */
    long successes() {
        return successes.sum();
    }

    /** The successes that count toward throughput. */
    long successesInWindow() {
        return successesInWindow.sum();
    }

    /** The failure counts so far, by name, sorted. */
    Map<String, Long> failureCounts() {
        Map<String, Long> counts = new TreeMap<>();
        failures.forEach((name, n) -> counts.put(name, n.sum()));
        return counts;
    }

    /** The latencies recorded since the last call (call once, after the run). */
    Histogram latencies() {
        return latencies.getIntervalHistogram();
    }
}
