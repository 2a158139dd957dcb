package dev.strata.engine.sst;

import java.util.Arrays;

/**
 * Builds the table's bloom filter over user keys. Block contents:
 * {@code [bit array][probe count u8]}; the number of bits is the array length times 8.
 * With b bits per key the best probe count is b x ln 2 (clamped to [1, 30]), which gives
 * about 1% false positives at 10 bits per key (LevelDB's {@code bloom.cc}). Probes are
 * derived from one 64-bit xxHash by double hashing. Not thread-safe.
 */
final class BloomFilterBuilder {
    private final int bitsPerKey;
    private long[] hashes = new long[1024];
    private int count;

    BloomFilterBuilder(int bitsPerKey) {
        if (bitsPerKey < 1) {
            throw new IllegalArgumentException("bitsPerKey " + bitsPerKey);
        }
        this.bitsPerKey = bitsPerKey;
    }

    /** Adds a user key; the caller adds each distinct key once. */
    void addKey(byte[] key, int off, int len) {
        if (count == hashes.length) {
            hashes = Arrays.copyOf(hashes, hashes.length * 2);
        }
        hashes[count++] = BloomFilter.hash(key, off, len);
    }

    byte[] finish() {
        int probes = Math.max(1, Math.min(30, (int) Math.round(bitsPerKey * 0.69)));
        long bits = Math.max(64, (long) count * bitsPerKey);
        int bytes = (int) Math.min(Integer.MAX_VALUE - 8, (bits + 7) / 8);
        bits = bytes * 8L;
        byte[] out = new byte[bytes + 1];
        for (int i = 0; i < count; i++) {
            long h = hashes[i];
            int h1 = (int) h;
            int h2 = (int) (h >>> 32);
            for (int p = 0; p < probes; p++) {
                long bit = Integer.toUnsignedLong(h1 + p * h2) % bits;
                out[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
            }
        }
        out[bytes] = (byte) probes;
        return out;
    }
}
