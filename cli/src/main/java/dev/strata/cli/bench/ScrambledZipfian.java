package dev.strata.cli.bench;

import java.util.SplittableRandom;

/**
 * YCSB's scrambled zipfian: a zipfian rank over {@value #RANKS} items, hashed with 64-bit FNV-1a
 * and reduced modulo the key count. The hash scatters the popular keys over the key space
 * instead of crowding them at its start, where they would share data blocks and cache lines the
 * way real hot keys rarely do. Drawing ranks over 10<sup>10</sup> items whatever the key count,
 * as YCSB does, keeps the popularity of the hottest keys the same for every key count (the
 * hottest gets 1/ζ(10<sup>10</sup>), about 3.8% of draws); ranks beyond the key count fold onto
 * keys already drawn.
 *
 * <p>Not thread-safe: one per worker.
 */
final class ScrambledZipfian implements KeyChooser {
    static final long RANKS = 10_000_000_000L;

    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final ZipfianGenerator ranks;
    private final long keys;

    ScrambledZipfian(long keys, SplittableRandom random) {
        this.ranks = new ZipfianGenerator(RANKS, random);
        this.keys = keys;
    }

    @Override
    public long next() {
        return fnv1a(ranks.next()) % keys;
    }

    /** FNV-1a over the value's eight bytes, low byte first, with the sign bit cleared. */
    static long fnv1a(long value) {
        long hash = FNV_OFFSET_BASIS;
        for (int i = 0; i < Long.BYTES; i++) {
            hash ^= value & 0xff;
            hash *= FNV_PRIME;
            value >>>= 8;
        }
        return hash & Long.MAX_VALUE;
    }
}
