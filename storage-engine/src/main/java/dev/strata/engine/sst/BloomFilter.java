package dev.strata.engine.sst;

import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/** Reads a bloom filter block written by {@link BloomFilterBuilder}. Thread-safe. */
final class BloomFilter {
    private static final XXHash64 XXHASH = XXHashFactory.fastestInstance().hash64();
    private static final long SEED = 0x5354524154414246L;

    private final byte[] data;
    private final long bits;
    private final int probes;

    /** @throws IllegalArgumentException when the block is not a valid filter */
    BloomFilter(byte[] block) {
        if (block.length < 2) {
            throw new IllegalArgumentException("filter block of " + block.length + " bytes");
        }
        this.data = block;
        this.bits = (block.length - 1) * 8L;
        this.probes = block[block.length - 1] & 0xFF;
        if (probes < 1 || probes > 30) {
            throw new IllegalArgumentException("filter probe count " + probes);
        }
    }

    static long hash(byte[] key, int off, int len) {
        return XXHASH.hash(key, off, len, SEED);
    }

    /** False when the key is certainly absent from the table. */
    boolean mayContain(byte[] key, int off, int len) {
        long h = hash(key, off, len);
        int h1 = (int) h;
        int h2 = (int) (h >>> 32);
        for (int p = 0; p < probes; p++) {
            long bit = Integer.toUnsignedLong(h1 + p * h2) % bits;
            if ((data[(int) (bit >>> 3)] & (1 << (bit & 7))) == 0) {
                return false;
            }
        }
        return true;
    }

    int sizeInBytes() {
        return data.length;
    }
}
