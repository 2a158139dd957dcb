package dev.strata.cli.bench;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How often a workload runs each operation: fractions of all operations that sum to 1.
 * Operations with fraction 0 are left out. Immutable and thread-safe; draws take the caller's
 * random.
 */
final class OperationMix {
    private final OpType[] ops;
    private final double[] fractions;

    private OperationMix(OpType[] ops, double[] fractions) {
        this.ops = ops;
        this.fractions = fractions;
    }

    /**
     * @throws IllegalArgumentException when a fraction is negative or they do not sum to 1
     */
    static OperationMix of(Map<OpType, Double> fractions) {
        Map<OpType, Double> sorted = new EnumMap<>(fractions);
        sorted.values().removeIf(f -> f == 0);
        double sum = 0;
        for (Map.Entry<OpType, Double> e : sorted.entrySet()) {
            if (e.getValue() < 0) {
                throw new IllegalArgumentException("the fraction of " + e.getKey().label() + " is negative: " + e.getValue());
            }
            sum += e.getValue();
        }
        if (Math.abs(sum - 1) > 1e-9) {
            throw new IllegalArgumentException("operation fractions must sum to 1, got " + sum + " in " + fractions);
        }
        return new OperationMix(sorted.keySet().toArray(OpType[]::new),
                sorted.values().stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The operation of the next request. */
    OpType next(SplittableRandom random) {
        double u = random.nextDouble();
        for (int i = 0; i < ops.length - 1; i++) {
            u -= fractions[i];
            if (u < 0) {
                return ops[i];
            }
        }
        // The last operation takes the rest, so rounding in the fractions cannot leave a gap.
        return ops[ops.length - 1];
    }

    /** Each operation of the mix with its fraction, in {@link OpType} order. */
    Map<OpType, Double> fractions() {
        Map<OpType, Double> m = new EnumMap<>(OpType.class);
        for (int i = 0; i < ops.length; i++) {
            m.put(ops[i], fractions[i]);
        }
        return m;
    }
}
