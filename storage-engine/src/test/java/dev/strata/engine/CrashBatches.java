package dev.strata.engine;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * The batches {@link CrashWriter} writes, generated from a seed so the test can regenerate
 * exactly what was (or might have been) written. Batch n of a round puts keys
 * {@code r<round>/b<n>/<i>} (1 to 20 of them, values up to 3 KiB), overwrites
 * {@code r<round>/last} with n, and deletes key 0 of batch n - 3.
 */
final class CrashBatches {
    private CrashBatches() {}

    static EngineOptions options() {
        return EngineOptions.builder().walMode(WalMode.SYNC).writeBufferSize(64 * 1024).blockSize(1024)
                .targetFileSize(64 * 1024).level1MaxBytes(256 * 1024).level0CompactionTrigger(2).build();
    }

    static byte[] key(int round, int batch, int i) {
        return ("r" + round + "/b" + batch + "/" + i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] lastKey(int round) {
        return ("r" + round + "/last").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int batch, int i, int size) {
        byte[] v = new byte[size];
        byte[] tag = (batch + ":" + i + ":").getBytes(StandardCharsets.UTF_8);
        for (int j = 0; j < size; j++) {
            v[j] = tag[j % tag.length];
        }
        return v;
    }

    /** The number of keys batch n puts; consumes the same random numbers as {@link #batch}. */
    record Shape(int keys, int[] sizes) {}

    static Shape shape(Random rnd) {
        int keys = 1 + rnd.nextInt(20);
        int[] sizes = new int[keys];
        for (int i = 0; i < keys; i++) {
            sizes[i] = rnd.nextInt(8) == 0 ? rnd.nextInt(3000) : rnd.nextInt(100);
        }
        return new Shape(keys, sizes);
    }

    static WriteBatch batch(int round, int n, Random rnd) {
        Shape s = shape(rnd);
        WriteBatch b = new WriteBatch();
        for (int i = 0; i < s.keys(); i++) {
            b.put(key(round, n, i), value(n, i, s.sizes()[i]));
        }
        b.put(lastKey(round), Integer.toString(n).getBytes(StandardCharsets.UTF_8));
        if (n > 3) {
            b.delete(key(round, n - 3, 0));
        }
        return b;
    }
}
