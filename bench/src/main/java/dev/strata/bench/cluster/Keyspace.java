package dev.strata.bench.cluster;

import com.google.protobuf.ByteString;
import dev.strata.cli.bench.ValueGenerator;

import java.nio.charset.StandardCharsets;

/**
 * The keys and values both systems get: keys {@code bench/%012d} over {@code [0, keys)}, and
 * values of one size cut by {@link ValueGenerator} (compressibility 0.5) from one seed.
 * Operation {@code i} of a run uses key {@link #key(long)} and value {@link #value(long)}, fixed
 * functions of {@code i}, so the n-th operation a run issues is the same on both systems.
 *
 * <p>Immutable and thread-safe.
 */
final class Keyspace {
    /** Values cut per keyspace: at least 2 MiB of them, so neighbouring operations do not repeat a value. */
    private static final int VALUE_BYTES = 2 << 20;
    private static final double COMPRESSIBILITY = 0.5;

    private final ByteString[] keys;
    private final ByteString[] values;
    private final long seed;
    private final int valueSize;

    Keyspace(int keys, int valueSize, long seed) {
        if (keys < 1 || valueSize < 0) {
            throw new IllegalArgumentException("keys must be >= 1 and value size >= 0, were " + keys + ", " + valueSize);
        }
        this.seed = seed;
        this.valueSize = valueSize;
        this.keys = new ByteString[keys];
        for (int k = 0; k < keys; k++) {
            this.keys[k] = keyOf(k);
        }
        ValueGenerator generator = new ValueGenerator(seed, valueSize, COMPRESSIBILITY);
        this.values = new ByteString[Math.max(64, Math.min(4096, VALUE_BYTES / Math.max(1, valueSize)))];
        for (int v = 0; v < values.length; v++) {
            this.values[v] = ByteString.copyFrom(generator.next());
        }
    }

    /** The key with number {@code k}: {@code bench/} and k in 12 zero-padded digits. */
    static ByteString keyOf(int k) {
        return ByteString.copyFrom(String.format("bench/%012d", k), StandardCharsets.US_ASCII);
    }

    int keys() {
        return keys.length;
    }

    int valueSize() {
        return valueSize;
    }

    /** The key of operation {@code i}: uniform over the keys, a fixed function of {@code i} and the seed. */
    ByteString key(long i) {
        return keys[(int) Math.floorMod(mix(seed + i * 0x9e3779b97f4a7c15L), (long) keys.length)];
    }

    /** Key number {@code k} itself, for the preload. */
    ByteString keyNumber(int k) {
        return keys[k];
    }

    /** The value of operation {@code i}. */
    ByteString value(long i) {
        return values[(int) Math.floorMod(i, (long) values.length)];
    }

    /** SplitMix64's finaliser: neighbouring inputs give unrelated outputs. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
