package dev.strata.bench.cluster;

import java.util.List;
import java.util.Objects;

/** Medians and ratios of figures that may be missing (null): a missing figure is never made up. */
final class Stats {
    private Stats() {}

    /**
     * The middle value, or the mean of the two middle ones.
     *
     * @throws IllegalArgumentException when there are no values
     */
    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (sorted.length == 0) {
            throw new IllegalArgumentException("median of nothing");
        }
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** The median; null when there are no values or any is missing. */
    static Double medianOrNull(List<Double> values) {
        return values.isEmpty() || values.stream().anyMatch(Objects::isNull) ? null : median(values);
    }

    /** {@code a / b}; null when either is missing or b is 0 (etcd measured nothing: no ratio, not infinity). */
    static Double ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }
}
