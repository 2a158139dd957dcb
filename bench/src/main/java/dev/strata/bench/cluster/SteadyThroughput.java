package dev.strata.bench.cluster;

/**
 * Decides when repeated warm-up passes may stop: once the throughput of a pass has stopped
 * rising. A JVM's JIT keeps compiling for minutes on a small machine with three nodes on it, so
 * a fixed warm-up either wastes time on a fast machine or measures a cold server on a slow one.
 *
 * <p>The rule: warm after {@code settledPasses} passes in a row that do not beat the best pass so
 * far by more than {@code gain} (0.10 = 10%). Noise between passes is why it asks for several
 * in a row and compares with the best, not with the previous pass.
 */
final class SteadyThroughput {
    private final double gain;
    private final int settledPasses;
    private double best;
    private int passesWithoutGain;

    SteadyThroughput(double gain, int settledPasses) {
        if (!(gain >= 0) || settledPasses < 1) {
            throw new IllegalArgumentException("gain must be >= 0 and settledPasses >= 1, were " + gain + ", "
                    + settledPasses);
        }
        this.gain = gain;
        this.settledPasses = settledPasses;
    }

    /**
     * Records one pass's throughput and answers whether the system is now warm.
     *
     * @param opsPerSecond the pass's figure (any consistent measure, e.g. the geometric mean of
     *                     its workloads' throughputs); a pass where nothing succeeded counts 0,
     *                     and a system that has never answered is not warm
     */
    boolean record(double opsPerSecond) {
        if (opsPerSecond > best * (1 + gain)) {
            best = opsPerSecond;
            passesWithoutGain = 0;
            return false;
        }
        best = Math.max(best, opsPerSecond);
        passesWithoutGain++;
        return best > 0 && passesWithoutGain >= settledPasses;
    }

    /** The best pass so far. */
    double best() {
        return best;
    }

    /**
     * The geometric mean of some throughputs: each workload weighs the same whatever its scale
     * (a get runs ten times as many operations as a 16 KiB put). Zero when any is zero.
     */
    static double geometricMean(double... opsPerSecond) {
        if (opsPerSecond.length == 0) {
            throw new IllegalArgumentException("no throughputs");
        }
        double logs = 0;
        for (double v : opsPerSecond) {
            if (v <= 0) {
                return 0;
            }
            logs += Math.log(v);
        }
        return Math.exp(logs / opsPerSecond.length);
    }
}
