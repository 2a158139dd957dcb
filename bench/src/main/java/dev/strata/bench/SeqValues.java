package dev.strata.bench;

import dev.strata.cli.bench.ValueGenerator;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The value that command number {@code n} writes: {@code n} in decimal and a slash, then bytes cut
 * from a fixed 1 MiB db_bench-style buffer (compressibility 0.5, as the other benchmarks' values)
 * at an offset drawn from {@code n}. A value depends only on the seed, the size and {@code n}, so
 * the recovery benchmark's ground truth keeps command numbers, not values, and no two commands
 * write the same value. Immutable and thread-safe.
 */
final class SeqValues {
    /** Room for the longest decimal long and the slash. */
    static final int MIN_SIZE = 21;

    private final byte[] buffer;
    private final int size;
    private final long seed;

    /** @throws IllegalArgumentException when {@code size} is below {@link #MIN_SIZE} or above 64 KiB */
    SeqValues(long seed, int size) {
        if (size < MIN_SIZE || size > 64 << 10) {
            throw new IllegalArgumentException("value size must be in [" + MIN_SIZE + ", 65536], was " + size);
        }
        this.buffer = new ValueGenerator(seed, 1 << 20, 0.5).next();
        this.size = size;
        this.seed = seed;
    }

    int size() {
        return size;
    }

    /** The value of command {@code n}; a fresh array. */
    byte[] of(long n) {
        byte[] prefix = (n + "/").getBytes(StandardCharsets.US_ASCII);
        byte[] value = Arrays.copyOf(prefix, size);
        int offset = new SplittableRandom(seed ^ n * 0x9E3779B97F4A7C15L).nextInt(buffer.length - size);
        System.arraycopy(buffer, offset, value, prefix.length, size - prefix.length);
        return value;
    }
}
