package dev.strata.bench;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The distinct key numbers written so far, so the logical size of the live data (live keys x
 * entry size) is known without asking the engine. A bit per key of the key space; thread-safe.
 * Workloads never delete, so a key once written stays live.
 */
final class WrittenKeys {
    /** Key spaces up to this size are tracked: 256 MiB of bits at most. */
    static final long MAX_KEYS = 1L << 31;

    private final AtomicLongArray bits;
    private final LongAdder count = new LongAdder();

    /** @param keySpace keys are numbered [0, keySpace), at most {@link #MAX_KEYS} */
    WrittenKeys(long keySpace) {
        if (keySpace < 0 || keySpace > MAX_KEYS) {
            throw new IllegalArgumentException("key space must be in [0, " + MAX_KEYS + "], was " + keySpace);
        }
        bits = new AtomicLongArray((int) ((keySpace + 63) >>> 6));
    }

    void add(long number) {
        long bit = 1L << number; // shifts use the low 6 bits: the key's bit in its word
        long before = bits.getAndAccumulate((int) (number >>> 6), bit, (word, b) -> word | b);
        if ((before & bit) == 0) {
            count.increment();
        }
    }

    /** Distinct keys added so far. */
    long count() {
        return count.sum();
    }
}
