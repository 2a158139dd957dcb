package dev.strata.cli.bench;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Values of a chosen compressibility, made as db_bench's {@code RandomGenerator} makes them: a
 * buffer of at least 1 MiB built from 100-byte pieces, each a run of random printable bytes
 * repeated to fill the piece, and values cut from it one after another. A piece whose random run
 * is {@code r} bytes compresses to about {@code r / 100} of its size, so the run length is
 * {@code (1 - compressibility) x 100}. The buffer is large next to a data block, so neighbouring
 * values in a block do not repeat each other. Shared by {@code strata bench} and the bench
 * module's engine benchmarks, so both write the same kind of data.
 *
 * <p>Not thread-safe: one per thread.
 */
public final class ValueGenerator {
    private static final int PIECE = 100;
    private static final int MIN_BUFFER = 1 << 20;

    private final byte[] data;
    private final int valueSize;
    private int position;

    /**
     * @param compressibility fraction of each value that compresses away, in [0, 1]; at 1 a
     *                        piece is still one random byte repeated
     */
    public ValueGenerator(long seed, int valueSize, double compressibility) {
        SplittableRandom random = new SplittableRandom(seed);
        int run = Math.max(1, (int) (PIECE * (1 - compressibility)));
        this.valueSize = valueSize;
        this.data = new byte[Math.max(MIN_BUFFER, valueSize) / PIECE * PIECE + PIECE];
        byte[] piece = new byte[run];
        for (int start = 0; start < data.length; start += PIECE) {
            for (int i = 0; i < run; i++) {
                piece[i] = (byte) (' ' + random.nextInt(95));
            }
            for (int i = 0; i < PIECE; i++) {
                data[start + i] = piece[i % run];
            }
        }
    }

    /** The next value; a fresh array the caller may keep or hand on. */
    public byte[] next() {
        if (position + valueSize > data.length) {
            position = 0;
        }
        position += valueSize;
        return Arrays.copyOfRange(data, position - valueSize, position);
    }
}
