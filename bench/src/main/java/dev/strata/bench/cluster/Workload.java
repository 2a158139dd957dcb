package dev.strata.bench.cluster;

import java.util.Locale;

/**
 * One thing to measure: an operation, a value size, where requests go, and the load, either a
 * closed loop of {@code concurrency} operations in flight or an open loop offering {@code rate}
 * ops/s with at most {@code maxInFlight} unanswered. Exactly one of concurrency and rate is set.
 */
record Workload(Op op, int valueSize, Placement to, Integer concurrency, Double rate, Integer maxInFlight) {
    Workload {
        if ((concurrency == null) == (rate == null)) {
            throw new IllegalArgumentException("a workload has a concurrency or a rate, not both or neither");
        }
        if (concurrency != null && concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be >= 1, was " + concurrency);
        }
        if (rate != null && (!(rate > 0) || maxInFlight == null || maxInFlight < 1)) {
            throw new IllegalArgumentException("an open loop needs a rate > 0 and a cap >= 1, were " + rate + ", " + maxInFlight);
        }
    }

    static Workload closed(Op op, int valueSize, Placement to, int concurrency) {
        return new Workload(op, valueSize, to, concurrency, null, null);
    }

    static Workload open(Op op, int valueSize, Placement to, double rate, int maxInFlight) {
        return new Workload(op, valueSize, to, null, rate, maxInFlight);
    }

    boolean openLoop() {
        return rate != null;
    }

    /** A short name for tables: {@code put 256B c16 leader}, {@code get 1KiB 500/s follower}. */
    String label() {
        String load = openLoop() ? String.format(Locale.ROOT, "%.0f/s", rate) : "c" + concurrency;
        return op.label() + " " + size(valueSize) + " " + load + " " + to.label();
    }

    private static String size(int bytes) {
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + "KiB";
        }
        return bytes + "B";
    }
}
