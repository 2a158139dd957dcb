package dev.strata.engine;

import dev.strata.engine.testing.Seeds;
import dev.strata.engine.vlog.ValueLogId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static dev.strata.engine.testing.TestKeys.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Key-value separation end to end: values in value logs, exact garbage, collection inside compaction. */
class ValueLogEngineTest {
    @TempDir
    Path dir;

    /** Small files and memtables so value logs are written, collected and deleted many times. */
    static EngineOptions options() {
        return EngineModelTest.smallOptions(WalMode.NO_SYNC).toBuilder()
                .minBlobSize(512)
                .valueLogFileSize(64 * 1024)
                .build();
    }

    private static byte[] randomBytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** Mixed values: mostly small (inline), some large (separated), some half-compressible. */
    private static byte[] mixedValue(Random rnd) {
        int n = switch (rnd.nextInt(4)) {
            case 0 -> rnd.nextInt(100);
            case 1 -> 512 + rnd.nextInt(1024);
            case 2 -> 4096 + rnd.nextInt(8192);
            default -> 511 + rnd.nextInt(3);
        };
        byte[] v = randomBytes(rnd, n);
        if (rnd.nextBoolean()) {
            Arrays.fill(v, 0, n / 2, (byte) 'z');
        }
        return v;
    }

    /**
     * The model test for separated values: puts, deletes and batches of both over a small key
     * space, point reads and range scans, and a snapshot held across each phase's compactions (so
     * collection must keep the files it reads from), with a reopen after every phase.
     */
    @Test
    void mixedValuesWithHeavyOverwritesAndDeletesSurviveEveryPhaseAndReopen() {
        long seed = Seeds.seed("ValueLogEngineTest");
        Random rnd = new Random(seed);
        NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        for (int phase = 0; phase < 6; phase++) {
            String context = "seed=" + seed + " phase " + phase;
            try (Engine db = Engine.open(dir, options())) {
                EngineModelTest.checkScan(db.scan(null, null), model, context + " after reopen");
                Snapshot snapshot = null;
                NavigableMap<byte[], byte[]> frozen = null;
                for (int op = 0; op < 3000; op++) {
                    int dice = rnd.nextInt(10);
                    if (dice < 6) {
                        byte[] k = key(rnd.nextInt(400));
                        byte[] v = mixedValue(rnd);
                        db.put(k, v);
                        model.put(k, v);
                    } else if (dice < 9) {
                        byte[] k = key(rnd.nextInt(400));
                        db.delete(k);
                        model.remove(k);
                    } else {
                        writeRandomBatch(db, rnd, model);
                    }
                    if (op == 1000) {
                        snapshot = db.snapshot();
                        frozen = new TreeMap<>(model);
                    }
                    if (op % 500 == 0) {
                        byte[] probe = key(rnd.nextInt(400));
                        assertThat(db.get(probe)).as(context + " get").isEqualTo(model.get(probe));
                        checkRandomRange(db, rnd, model, context + " op " + op);
                    }
                }
                if (phase % 2 == 1) {
                    db.compactRange(null, null);
                }
                db.waitForCompactions();
                EngineModelTest.checkScan(db.scan(null, null), model, context);
                for (byte[] k : model.keySet()) {
                    assertThat(db.get(k)).isEqualTo(model.get(k));
                }
                try (Snapshot s = snapshot) {
                    EngineModelTest.checkScan(s.scan(null, null), frozen, context + " snapshot after compactions");
                    byte[] probe = key(rnd.nextInt(400));
                    assertThat(s.get(probe)).as(context + " snapshot get").isEqualTo(frozen.get(probe));
                }
                VerifyReport report = db.verify();
                assertThat(report.valuePointers()).as("values were separated").isPositive();
                EngineStats s = db.stats();
                assertThat(s.valueLogBytesWritten()).isPositive();
                if (phase == 5) {
                    assertThat(s.valueLogRelocatedBytes() + s.gcCompactions()).as("garbage collection ran").isPositive();
                }
            }
        }
    }

    /** One batch of 1 to 10 puts and deletes, applied to the model only once written. */
    private static void writeRandomBatch(Engine db, Random rnd, NavigableMap<byte[], byte[]> model) {
        WriteBatch batch = new WriteBatch();
        NavigableMap<byte[], byte[]> staged = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = rnd.nextInt(10); i >= 0; i--) {
            byte[] k = key(rnd.nextInt(400));
            if (rnd.nextInt(3) == 0) {
                batch.delete(k);
                staged.put(k, null);
            } else {
                byte[] v = mixedValue(rnd);
                batch.put(k, v);
                staged.put(k, v);
            }
        }
        db.write(batch);
        staged.forEach((k, v) -> {
            if (v == null) model.remove(k); else model.put(k, v);
        });
    }

    /** A scan between two random keys, against the model. */
    private static void checkRandomRange(Engine db, Random rnd, NavigableMap<byte[], byte[]> model, String context) {
        byte[] a = key(rnd.nextInt(400));
        byte[] b = key(rnd.nextInt(400));
        if (Arrays.compareUnsigned(a, b) > 0) {
            byte[] t = a; a = b; b = t;
        }
        EngineModelTest.checkScan(db.scan(a, b), model.subMap(a, true, b, false), context + " range scan");
    }

    /**
     * 300 hot keys overwritten every round, with 20 new cold keys per round written among them
     * and never touched again: every value-log file keeps a few live cold values among many dead
     * hot ones, so no file ever empties by itself. Without collection the logs grow with every
     * round; with it they stay within a small factor of the live data.
     */
    @Test
    void overwriteWorkloadKeepsSpaceBoundedOnlyWithCollection() {
        long withGc = hotAndColdRounds(options(), "gc");
        long withoutGc = hotAndColdRounds(options().toBuilder().valueLogGarbageRatio(1.0).valueLogSpaceAmplification(0).build(),
                "no-gc");
        long live = (300L + 30 * 20) * 4096;
        System.out.printf("value-log bytes after 30 rounds: %d with GC (%.2fx live), %d without (%.2fx live)%n",
                withGc, (double) withGc / live, withoutGc, (double) withoutGc / live);
        assertThat(withGc).as("value-log bytes with garbage collection").isLessThan(2 * live);
        assertThat(withoutGc).as("value-log bytes without collection").isGreaterThan(5 * live);
    }

    private long hotAndColdRounds(EngineOptions options, String name) {
        Random rnd = new Random(1);
        try (Engine db = Engine.open(dir.resolve(name), options)) {
            for (int round = 0; round < 30; round++) {
                for (int i = 0; i < 300; i++) {
                    db.put(key(i), randomBytes(rnd, 4096));
                    if (i % 15 == 14) {
                        db.put(key(1_000_000 + round * 20 + i / 15), randomBytes(rnd, 4096));
                    }
                }
            }
            db.waitForCompactions();
            db.verify();
            return db.stats().valueLogBytes();
        }
    }

    @Test
    void theEventListenerHearsOfEachValueLogFileAndCannotFailTheJob() {
        List<ValueLogFileCreated> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        EngineEventListener listener = new EngineEventListener() {
            @Override
            public void onValueLogFileCreated(ValueLogFileCreated event) {
                heard.add(event);
                throw new IllegalStateException("a listener's own bug");
            }
        };
        Random rnd = new Random(6);
        byte[] big = randomBytes(rnd, 5000);
        try (Engine db = Engine.open(dir, options().toBuilder().eventListener(listener).build())) {
            db.put(key(1), big);
            db.flush();
            assertThat(db.get(key(1))).as("the flush committed despite the listener").isEqualTo(big);
            assertThat(heard).hasSize(1);
            ValueLogFileCreated event = heard.get(0);
            assertThat(event.job()).isEqualTo(ValueLogFileCreated.Job.FLUSH);
            assertThat(event.relocatedBytes()).isZero();
            assertThat(event.entries()).isEqualTo(1);
            assertThat(db.stats().valueLogs()).extracting(EngineStats.ValueLogStats::file)
                    .containsExactly(event.fileName());
        }
    }

    @Test
    void valueLogsCanLiveInTheirOwnDirectory() throws IOException {
        Path values = dir.resolve("values-device");
        Path data = dir.resolve("keys-device");
        EngineOptions o = options().toBuilder().valueLogDir(values).build();
        Random rnd = new Random(3);
        byte[] big = randomBytes(rnd, 5000);
        try (Engine db = Engine.open(data, o)) {
            db.put(key(1), big);
            db.put(key(2), new byte[] {1, 2, 3});
            db.flush();
            assertThat(db.stats().totalBytes()).isGreaterThan(5000);
        }
        try (var s = Files.list(values)) {
            assertThat(s.filter(p -> p.toString().endsWith(".vlog")).count()).isEqualTo(1);
        }
        try (var s = Files.list(data)) {
            assertThat(s.noneMatch(p -> p.toString().endsWith(".vlog"))).isTrue();
        }
        try (Engine db = Engine.open(data, o)) {
            assertThat(db.get(key(1))).isEqualTo(big);
            assertThat(db.get(key(2))).isEqualTo(new byte[] {1, 2, 3});
        }
    }

    @Test
    void damagedValueRecordIsReportedNotReturned() throws IOException {
        Random rnd = new Random(4);
        try (Engine db = Engine.open(dir, options())) {
            for (int i = 0; i < 20; i++) {
                db.put(key(i), randomBytes(rnd, 2000));
            }
            db.flush();
        }
        Path vlog;
        try (var s = Files.list(dir)) {
            vlog = s.filter(p -> p.toString().endsWith(".vlog")).findFirst().orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(vlog.toFile(), "rw")) {
            f.seek(5000); // inside the third record
            int b = f.read();
            f.seek(5000);
            f.write(b ^ 4);
        }
        try (Engine db = Engine.open(dir, options())) {
            int damaged = 0;
            for (int i = 0; i < 20; i++) {
                try {
                    assertThat(db.get(key(i))).hasSize(2000);
                } catch (CorruptionException e) {
                    assertThat(e.getMessage()).contains(vlog.getFileName().toString()).contains("checksum");
                    damaged++;
                }
            }
            assertThat(damaged).isEqualTo(1);
            assertThatThrownBy(db::verify).isInstanceOf(CorruptionException.class);
        }
    }

    @Test
    void orphanedValueLogsAreRemovedOnOpen() throws IOException {
        long origin;
        try (Engine db = Engine.open(dir, options())) {
            db.put(key(1), new byte[2000]);
            db.flush();
        }
        try (var s = Files.list(dir)) {
            origin = s.map(p -> ValueLogId.parse(p.getFileName().toString())).filter(id -> id != null)
                    .findFirst().orElseThrow().origin();
        }
        Path mine = new ValueLogId(origin, 999_000).path(dir);
        Path foreign = new ValueLogId(origin + 1, 5).path(dir);
        Files.write(mine, new byte[64]);
        Files.write(foreign, new byte[64]);
        try (Engine db = Engine.open(dir, options())) {
            assertThat(db.get(key(1))).hasSize(2000);
        }
        assertThat(mine).doesNotExist();
        assertThat(foreign).as("no version lists it either").doesNotExist();
    }

    @Test
    void scansReadSeparatedValuesInKeyOrder() {
        Random rnd = new Random(5);
        NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (Engine db = Engine.open(dir, options())) {
            for (int i = 0; i < 500; i++) {
                byte[] v = mixedValue(rnd);
                db.put(key(i), v);
                model.put(key(i), v);
            }
            db.compactRange(null, null);
            EngineModelTest.checkScan(db.scan(key(100), key(300)), model.subMap(key(100), true, key(300), false), "range");
            try (Snapshot s = db.snapshot()) {
                for (int i = 0; i < 500; i++) {
                    db.put(key(i), new byte[700]);
                }
                db.compactRange(null, null);
                EngineModelTest.checkScan(s.scan(null, null), model, "snapshot sees the old separated values");
            }
            List<EngineStats.ValueLogStats> logs = db.stats().valueLogs();
            assertThat(logs).isNotEmpty();
        }
    }
}
