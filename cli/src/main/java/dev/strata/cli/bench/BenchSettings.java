package dev.strata.cli.bench;

import dev.strata.client.Consistency;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@code strata bench} run does, resolved from its flags; the defaults are the flags'
 * (see {@code BenchCommand}). The constructor checks every value and names the flag at fault.
 *
 * @param workload        the operation mix
 * @param distribution    how keys are chosen
 * @param keys            keys loaded and chosen from, numbered {@code [0, keys)}
 * @param valueSize       bytes per value written
 * @param compressibility fraction of each value that compresses away
 * @param clients         threads, each with one request in flight, sharing one client
 * @param rate            open loop: operations offered per second over all clients, each timed
 *                        from when it was due; null for a closed loop (each client sends its
 *                        next request as soon as the last is answered)
 * @param duration        how long the measured run lasts; null when {@code ops} bounds it instead
 * @param ops             operations in the measured run; null when {@code duration} bounds it
 * @param warmup          an unmeasured run before it, possibly zero
 * @param consistency     of reads, scans and the reads of read-modify-writes
 * @param readFraction    LogKV: the fraction of operations that are reads, the rest updates
 * @param hitRate         the fraction of reads that ask for a key that exists
 * @param hotFraction     hotspot: the fraction of the keys that are hot
 * @param hotRate         hotspot: the fraction of accesses that go to hot keys
 * @param maxScanLength   a scan reads 1 to this many keys, uniformly
 * @param keyPrefix       what every benchmark key starts with
 * @param seed            seeds every random choice (keys, operations, values)
 * @param load            whether to write every key before the run
 */
public record BenchSettings(Workload workload, Distribution distribution, long keys, long valueSize, double compressibility,
                            int clients, Double rate, Duration duration, Long ops, Duration warmup, Consistency consistency,
                            double readFraction, double hitRate, double hotFraction, double hotRate, int maxScanLength,
                            String keyPrefix, long seed, boolean load) {
    /** The largest value the server takes by default (strata.server.max-value-size). */
    public static final long MAX_VALUE_SIZE = 16 << 20;
    /** Far above what any cluster answers; a larger rate is a typo. */
    public static final double MAX_RATE = 10_000_000;
    /** Leaves room above the loaded keys for the keys a run inserts. */
    public static final long MAX_KEYS = KeySpace.MAX_KEYS / 10;

    /** @throws IllegalArgumentException naming the flag and the value at fault */
    public BenchSettings {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(distribution, "distribution");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(consistency, "consistency");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        between("--keys", keys, 1, MAX_KEYS);
        between("--value-size", valueSize, 1, MAX_VALUE_SIZE);
        atLeastOne("--clients", clients);
        atLeastOne("--max-scan-length", maxScanLength);
        fraction("--compressibility", compressibility);
        fraction("--read-fraction", readFraction);
        fraction("--hit-rate", hitRate);
        fraction("--hot-fraction", hotFraction);
        fraction("--hot-rate", hotRate);
        if (rate != null && !(rate > 0 && rate <= MAX_RATE)) {
            throw new IllegalArgumentException("--rate must be in (0, " + (long) MAX_RATE + "] ops/s, was " + rate);
        }
        if ((duration == null) == (ops == null)) {
            throw new IllegalArgumentException("give either --duration or --ops, not both");
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new IllegalArgumentException("--duration must be positive, was " + duration);
        }
        if (ops != null) {
            atLeastOne("--ops", ops);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must not be negative, was " + warmup);
        }
    }

    OperationMix mix() {
        return workload.mix(readFraction);
    }

    private static void between(String flag, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(flag + " must be in [" + min + ", " + max + "], was " + value);
        }
    }

    private static void atLeastOne(String flag, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(flag + " must be at least 1, was " + value);
        }
    }

    private static void fraction(String flag, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(flag + " must be a fraction in [0, 1], was " + value);
        }
    }
}
