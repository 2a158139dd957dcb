package dev.strata.engine;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

/**
 * The batches {@link CrashWriter} writes, generated from a seed so the test can regenerate
 * exactly what was (or might have been) written. Every batch of a round ends by setting
 * {@code r<round>/last} to its number, so the value of that key says which prefix of the
 * batches is durable.
 */
final class CrashBatches {
    private CrashBatches() {}

    /** What the batches do. */
    enum Workload {
        /** New keys (1 to 20 per batch, values up to 3 KiB) and the deletion of an older batch's key. */
        APPEND,
        /**
         * Overwrites and deletes over 100 keys with values of 600 B to 3 KiB, all separated into
         * value logs, with aggressive garbage collection: the child is killed while values are
         * being relocated.
         */
        OVERWRITE,
        /**
         * APPEND, opened without a flush after recovery: each open keeps what it replayed in the
         * memtable and its logs, so a kill soon after an open lands while those writes are in the
         * logs alone, and the next open replays the kept logs and the newer one.
         */
        APPEND_REPLAY_KEPT;

        boolean appends() {
            return this != OVERWRITE;
        }
    }

    static EngineOptions options(Workload w) {
        EngineOptions.Builder b = EngineOptions.builder().walMode(WalMode.SYNC).writeBufferSize(64 * 1024).blockSize(1024)
                .targetFileSize(64 * 1024).level1MaxBytes(256 * 1024).level0CompactionTrigger(2);
        if (w == Workload.OVERWRITE) {
            b.minBlobSize(512).valueLogFileSize(64 * 1024).valueLogGarbageRatio(0.3);
        }
        if (w == Workload.APPEND_REPLAY_KEPT) {
            b.flushAfterRecovery(false);
        }
        return b.build();
    }

    static byte[] lastKey(int round) {
        return ("r" + round + "/last").getBytes(StandardCharsets.UTF_8);
    }

    /** The first key of a round's range (inclusive) and the end (exclusive). */
    static byte[] roundStart(int round) {
        return ("r" + round + "/").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] roundEnd(int round) {
        return ("r" + round + "0").getBytes(StandardCharsets.UTF_8); // '0' follows '/'
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int batch, int i, int size) {
        byte[] v = new byte[size];
        byte[] tag = (batch + ":" + i + ":").getBytes(StandardCharsets.UTF_8);
        for (int j = 0; j < size; j++) {
            v[j] = tag[j % tag.length];
        }
        return v;
    }

    /** Batch {@code n} of a round; consumes {@code rnd} the same way for the writer and the checker. */
    static WriteBatch batch(Workload w, int round, int n, Random rnd, NavigableMap<byte[], byte[]> model) {
        WriteBatch b = new WriteBatch();
        String prefix = "r" + round + "/";
        if (w.appends()) {
            int keys = 1 + rnd.nextInt(20);
            for (int i = 0; i < keys; i++) {
                int size = rnd.nextInt(8) == 0 ? rnd.nextInt(3000) : rnd.nextInt(100);
                put(b, model, key(prefix + "b" + n + "/" + i), value(n, i, size));
            }
            if (n > 3) {
                delete(b, model, key(prefix + "b" + (n - 3) + "/0"));
            }
        } else {
            int ops = 1 + rnd.nextInt(5);
            for (int i = 0; i < ops; i++) {
                byte[] k = key(prefix + "hot/" + rnd.nextInt(100));
                if (rnd.nextInt(10) == 0) {
                    delete(b, model, k);
                } else {
                    put(b, model, k, value(n, i, 600 + rnd.nextInt(2400)));
                }
            }
        }
        put(b, model, lastKey(round), Integer.toString(n).getBytes(StandardCharsets.UTF_8));
        return b;
    }

    private static void put(WriteBatch b, NavigableMap<byte[], byte[]> model, byte[] k, byte[] v) {
        b.put(k, v);
        if (model != null) {
            model.put(k, v);
        }
    }

    private static void delete(WriteBatch b, NavigableMap<byte[], byte[]> model, byte[] k) {
        b.delete(k);
        if (model != null) {
            model.remove(k);
        }
    }

    /** The contents of a round's key range after batches 1 to {@code durable}. */
    static NavigableMap<byte[], byte[]> expected(Workload w, int round, long seed, int durable) {
        NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        Random rnd = new Random(seed);
        for (int n = 1; n <= durable; n++) {
            batch(w, round, n, rnd, model);
        }
        return model;
    }
}
