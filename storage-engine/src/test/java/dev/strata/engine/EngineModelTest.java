package dev.strata.engine;

import dev.strata.engine.testing.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine against a {@link TreeMap} model under random puts, deletes, batches, reads, scans,
 * snapshots, flushes, compactions and reopens. Options are tiny so every run flushes many
 * memtables and compacts through several levels.
 */
class EngineModelTest {
    @TempDir
    Path dir;

    private static final java.util.Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

    static EngineOptions smallOptions(WalMode walMode) {
        return EngineOptions.builder()
                .walMode(walMode)
                .writeBufferSize(64 * 1024)
                .blockSize(1024)
                .targetFileSize(64 * 1024)
                .level1MaxBytes(128 * 1024)
                .level0CompactionTrigger(2)
                .level0SlowdownTrigger(4)
                .level0StopTrigger(8)
                .build();
    }

    @Test
    void randomOperationsMatchModelWithSyncWal() throws Exception {
        run(WalMode.SYNC, 6_000);
    }

    @Test
    void randomOperationsMatchModelWithNoSyncWal() throws Exception {
        run(WalMode.NO_SYNC, 12_000);
    }

    @Test
    void randomOperationsMatchModelWithoutWal() throws Exception {
        run(WalMode.DISABLED, 12_000);
    }

    private void run(WalMode walMode, int operations) throws Exception {
        long seed = Seeds.seed("EngineModelTest " + walMode);
        Random rnd = new Random(seed);
        EngineOptions options = smallOptions(walMode);
        NavigableMap<byte[], byte[]> model = new TreeMap<>(UNSIGNED);
        Map<Snapshot, NavigableMap<byte[], byte[]>> snapshots = new HashMap<>();
        Engine engine = Engine.open(dir, options);
        // Stats count from the last open, so a reopen late in the run would hide earlier work.
        long flushes = 0;
        long compactions = 0;
        try {
            for (int op = 0; op < operations; op++) {
                String context = "seed=" + seed + " op=" + op;
                int dice = rnd.nextInt(1000);
                if (dice < 450) {
                    byte[] k = randomKey(rnd);
                    byte[] v = randomValue(rnd);
                    engine.put(k, v);
                    model.put(k, v);
                } else if (dice < 550) {
                    byte[] k = randomKey(rnd);
                    engine.delete(k);
                    model.remove(k);
                } else if (dice < 620) {
                    WriteBatch batch = new WriteBatch();
                    Map<byte[], byte[]> staged = new TreeMap<>(UNSIGNED);
                    for (int i = rnd.nextInt(20); i >= 0; i--) {
                        byte[] k = randomKey(rnd);
                        if (rnd.nextInt(4) == 0) {
                            batch.delete(k);
                            staged.put(k, null);
                        } else {
                            byte[] v = randomValue(rnd);
                            batch.put(k, v);
                            staged.put(k, v);
                        }
                    }
                    engine.write(batch);
                    staged.forEach((k, v) -> {
                        if (v == null) model.remove(k); else model.put(k, v);
                    });
                } else if (dice < 820) {
                    byte[] k = randomKey(rnd);
                    assertThat(engine.get(k)).as(context + " get").isEqualTo(model.get(k));
                } else if (dice < 860) {
                    checkScan(engine.scan(null, null), model, context + " full scan");
                    byte[] a = randomKey(rnd);
                    byte[] b = randomKey(rnd);
                    if (UNSIGNED.compare(a, b) > 0) {
                        byte[] t = a; a = b; b = t;
                    }
                    checkScan(engine.scan(a, b), model.subMap(a, true, b, false), context + " range scan");
                    checkScan(engine.scan(a, null), model.tailMap(a, true), context + " open-ended scan");
                } else if (dice < 880 && snapshots.size() < 4) {
                    snapshots.put(engine.snapshot(), new TreeMap<>(model) {{ }});
                } else if (dice < 900 && !snapshots.isEmpty()) {
                    Snapshot s = snapshots.keySet().iterator().next();
                    NavigableMap<byte[], byte[]> frozen = snapshots.remove(s);
                    byte[] k = randomKey(rnd);
                    assertThat(s.get(k)).as(context + " snapshot get").isEqualTo(frozen.get(k));
                    checkScan(s.scan(null, null), frozen, context + " snapshot scan");
                    s.close();
                } else if (dice < 915) {
                    engine.flush();
                } else if (dice < 920) {
                    engine.compactRange(null, null);
                } else if (dice < 925) {
                    byte[] a = randomKey(rnd);
                    engine.compactRange(a, null);
                } else if (dice < 930) {
                    snapshots.keySet().forEach(Snapshot::close);
                    snapshots.clear();
                    flushes += engine.stats().flushes();
                    compactions += engine.stats().compactions();
                    engine.close();
                    engine = Engine.open(dir, options);
                    checkScan(engine.scan(null, null), model, context + " after reopen");
                }
            }
            snapshots.keySet().forEach(Snapshot::close);
            engine.compactRange(null, null);
            checkScan(engine.scan(null, null), model, "seed=" + seed + " final");
            EngineStats stats = engine.stats();
            assertThat(flushes + stats.flushes()).as("flushes").isGreaterThan(0);
            assertThat(compactions + stats.compactions()).as("compactions").isGreaterThan(0);
        } finally {
            engine.close();
        }
        try (Engine reopened = Engine.open(dir, options)) {
            checkScan(reopened.scan(null, null), model, "seed=" + seed + " final reopen");
        }
    }

    /** Keys from a small space (so overwrites and deletes hit), in a few lengths including the empty key. */
    private static byte[] randomKey(Random rnd) {
        int n = rnd.nextInt(3000);
        if (n == 0) {
            return new byte[0];
        }
        String prefix = switch (n % 3) {
            case 0 -> "a";
            case 1 -> "key/";
            default -> "\u00ff";
        };
        return (prefix + n).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] randomValue(Random rnd) {
        int len = rnd.nextInt(10) == 0 ? rnd.nextInt(4000) : rnd.nextInt(100);
        byte[] v = new byte[len];
        // Half compressible, half random, so every codec path (compressed and stored raw) runs.
        for (int i = 0; i < len; i++) {
            v[i] = i % 2 == 0 ? (byte) (i / 7) : (byte) rnd.nextInt();
        }
        return v;
    }

    static void checkScan(KeyValueIterator it, NavigableMap<byte[], byte[]> expected, String context) {
        List<String> problems = new ArrayList<>();
        try (it) {
            var exp = expected.entrySet().iterator();
            while (it.hasNext() || exp.hasNext()) {
                if (!it.hasNext()) {
                    problems.add("missing " + describe(exp.next().getKey()));
                    break;
                }
                KeyValue kv = it.next();
                if (!exp.hasNext()) {
                    problems.add("unexpected " + describe(kv.key()));
                    break;
                }
                var e = exp.next();
                if (!Arrays.equals(kv.key(), e.getKey())) {
                    problems.add("key " + describe(kv.key()) + " where model has " + describe(e.getKey()));
                    break;
                }
                if (!Arrays.equals(kv.value(), e.getValue())) {
                    problems.add("value of " + describe(kv.key()) + " differs");
                    break;
                }
            }
        }
        assertThat(problems).as(context).isEmpty();
    }

    private static String describe(byte[] key) {
        return java.util.HexFormat.of().formatHex(key);
    }
}
