package dev.strata.engine.sst;

import java.util.concurrent.atomic.LongAdder;

/** Counts what bloom filters saved and what they let through, across all tables of an engine. */
public final class FilterStats {
    private final LongAdder useful = new LongAdder();
    private final LongAdder falsePositives = new LongAdder();

    void recordUseful() {
        useful.increment();
    }

    void recordFalsePositive() {
        falsePositives.increment();
    }

    /** Lookups a filter answered "absent" without a block read. */
    public long useful() {
        return useful.sum();
    }

    /** Lookups a filter passed that found nothing in the table. */
    public long falsePositives() {
        return falsePositives.sum();
    }
}
