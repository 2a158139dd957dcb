package dev.strata.bench;

/**
 * Benchmark keys: the key number in zero-padded decimal, {@value #SIZE} ASCII bytes, as
 * db_bench makes them. Byte order is number order, so fillseq writes in key order.
 */
final class Keys {
    static final int SIZE = 16;

    /** Key numbers are in [0, MAX_COUNT): the largest count whose numbers fit in {@value #SIZE} digits. */
    static final long MAX_COUNT = 10_000_000_000_000_000L;

    private Keys() {}

    /** The key of {@code number}; a fresh array the caller may hand to the engine. */
    static byte[] of(long number) {
        if (number < 0 || number >= MAX_COUNT) {
            throw new IllegalArgumentException("key number must be in [0, " + MAX_COUNT + "), was " + number);
        }
        byte[] key = new byte[SIZE];
        long n = number;
        for (int i = SIZE - 1; i >= 0; i--) {
            key[i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        return key;
    }
}
