package dev.strata.engine;

import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.version.FileNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.strata.engine.testing.TestKeys.bytes;
import static dev.strata.engine.testing.TestKeys.key;
import static dev.strata.engine.testing.TestKeys.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineTest {
    @TempDir
    Path dir;

    private static List<String> keys(KeyValueIterator it) {
        List<String> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(kv -> out.add(string(kv.key())));
        }
        return out;
    }

    @Test
    void putGetDeleteAndOverwrite() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            assertThat(db.get(bytes("a"))).isNull();
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("a"), bytes("2"));
            assertThat(string(db.get(bytes("a")))).isEqualTo("2");
            db.delete(bytes("a"));
            assertThat(db.get(bytes("a"))).isNull();
            db.delete(bytes("never-there"));
            db.put(new byte[0], new byte[0]);
            assertThat(db.get(new byte[0])).as("empty key and value are allowed").isEmpty();
        }
    }

    @Test
    void returnedArraysBelongToTheCaller() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            byte[] v = bytes("value");
            db.put(bytes("k"), v);
            v[0] = 'X';
            byte[] read = db.get(bytes("k"));
            assertThat(string(read)).isEqualTo("value");
            read[0] = 'Y';
            assertThat(string(db.get(bytes("k")))).isEqualTo("value");
        }
    }

    @Test
    void batchIsAtomicAndLaterOperationsWin() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            db.put(bytes("gone"), bytes("x"));
            db.write(new WriteBatch().put(bytes("k"), bytes("1")).put(bytes("k"), bytes("2")).delete(bytes("gone"))
                    .put(bytes("d"), bytes("x")).delete(bytes("d")));
            assertThat(string(db.get(bytes("k")))).isEqualTo("2");
            assertThat(db.get(bytes("gone"))).isNull();
            assertThat(db.get(bytes("d"))).isNull();
        }
    }

    @Test
    void scanHonoursBoundsInUnsignedOrder() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            for (String k : List.of("b", "a", "c", "d")) {
                db.put(bytes(k), bytes(k));
            }
            db.put(new byte[] {(byte) 0xFF}, bytes("high"));
            db.put(new byte[] {0x01}, bytes("low"));
            db.delete(bytes("c"));
            assertThat(keys(db.scan(bytes("b"), bytes("d")))).containsExactly("b");
            assertThat(keys(db.scan(bytes("a"), null))).containsExactly("a", "b", "d", "\ufffd");
            List<byte[]> all = new ArrayList<>();
            try (KeyValueIterator it = db.scan(null, null)) {
                it.forEachRemaining(kv -> all.add(kv.key()));
            }
            assertThat(all.get(0)).isEqualTo(new byte[] {0x01});
            assertThat(all.get(all.size() - 1)).as("0xFF sorts last: unsigned order").isEqualTo(new byte[] {(byte) 0xFF});
            assertThat(keys(db.scan(bytes("x"), bytes("y")))).isEmpty();
            assertThat(keys(db.scan(bytes("d"), bytes("b")))).as("empty when from >= to").isEmpty();
        }
    }

    @Test
    void scansAndSnapshotsSeeAConsistentPastEvenAcrossFlushAndCompaction() {
        try (Engine db = Engine.open(dir, EngineModelTest.smallOptions(WalMode.NO_SYNC))) {
            for (int i = 0; i < 100; i++) {
                db.put(key(i), bytes("v1"));
            }
            Snapshot snap = db.snapshot();
            KeyValueIterator it = db.scan(null, null);
            for (int i = 0; i < 100; i++) {
                db.put(key(i), bytes("v2"));
            }
            for (int i = 0; i < 50; i++) {
                db.delete(key(i));
            }
            db.compactRange(null, null);
            List<String> values = new ArrayList<>();
            it.forEachRemaining(kv -> values.add(string(kv.value())));
            it.close();
            assertThat(values).hasSize(100).containsOnly("v1");
            assertThat(string(snap.get(key(3)))).isEqualTo("v1");
            assertThat(keys(snap.scan(null, null))).hasSize(100);
            assertThat(db.get(key(3))).isNull();
            assertThat(string(db.get(key(70)))).isEqualTo("v2");
            snap.close();
            assertThatThrownBy(() -> snap.get(key(3))).isInstanceOf(EngineException.class).hasMessageContaining("closed");
        }
    }

    @Test
    void closedEngineRefusesEverything() {
        Engine db = Engine.open(dir, EngineOptions.defaults());
        db.close();
        db.close(); // idempotent
        assertThatThrownBy(() -> db.put(bytes("a"), bytes("b"))).isInstanceOf(EngineException.class)
                .extracting(e -> ((EngineException) e).code()).isEqualTo(EngineException.Code.CLOSED);
        assertThatThrownBy(() -> db.get(bytes("a"))).isInstanceOf(EngineException.class);
        assertThatThrownBy(() -> db.scan(null, null)).isInstanceOf(EngineException.class);
        assertThatThrownBy(db::snapshot).isInstanceOf(EngineException.class);
    }

    @Test
    void aDirectoryIsOpenedByOneEngineAtATime() {
        Engine first = Engine.open(dir, EngineOptions.defaults());
        try {
            assertThatThrownBy(() -> Engine.open(dir, EngineOptions.defaults())).isInstanceOf(EngineException.class)
                    .extracting(e -> ((EngineException) e).code()).isEqualTo(EngineException.Code.LOCKED);
        } finally {
            first.close();
        }
        Engine.open(dir, EngineOptions.defaults()).close();
    }

    @Test
    void appliedMarkerBecomesDurableWithTheFlushThatHoldsIt() {
        EngineOptions noWal = EngineOptions.builder().walMode(WalMode.DISABLED).build();
        try (Engine db = Engine.open(dir, noWal)) {
            assertThat(db.appliedMarker()).isNull();
            db.write(new WriteBatch().put(bytes("k"), bytes("v")).setAppliedMarker(bytes("1:5")));
            assertThat(db.appliedMarker()).as("not flushed yet").isNull();
            db.flush();
            assertThat(string(db.appliedMarker())).isEqualTo("1:5");
            db.write(new WriteBatch().setAppliedMarker(bytes("1:6"))); // a marker-only batch (a Raft no-op)
            db.flush();
            assertThat(string(db.appliedMarker())).isEqualTo("1:6");
            db.write(new WriteBatch().put(bytes("k2"), bytes("v")).setAppliedMarker(bytes("2:9")));
        } // close flushes when the log is disabled
        try (Engine db = Engine.open(dir, noWal)) {
            assertThat(string(db.appliedMarker())).isEqualTo("2:9");
            assertThat(string(db.get(bytes("k2")))).isEqualTo("v");
        }
    }

    @Test
    void appliedMarkerIsRecoveredFromTheLog() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            db.write(new WriteBatch().put(bytes("k"), bytes("v")).setAppliedMarker(bytes("3:1")));
        }
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            assertThat(string(db.appliedMarker())).isEqualTo("3:1");
        }
    }

    @Test
    void writesWithoutALogAreLostOnCrashButFlushedOnesAreNot() throws Exception {
        EngineOptions noWal = EngineOptions.builder().walMode(WalMode.DISABLED).build();
        Engine db = Engine.open(dir, noWal);
        db.put(bytes("flushed"), bytes("v"));
        db.flush();
        db.put(bytes("unflushed"), bytes("v"));
        // Simulate a crash: copy the directory as it is on disk while the engine is open.
        Path copy = Files.createTempDirectory(dir.getParent(), "crash-copy");
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (!p.getFileName().toString().equals(FileNames.LOCK)) {
                    Files.copy(p, copy.resolve(p.getFileName()));
                }
            }
        }
        db.close();
        try (Engine recovered = Engine.open(copy, noWal)) {
            assertThat(recovered.get(bytes("flushed"))).isNotNull();
            assertThat(recovered.get(bytes("unflushed"))).isNull();
        }
    }

    @Test
    void callerChosenSequencesOrderWritesAndLaterOperationsInABatchWin() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            db.write(new WriteBatch().put(bytes("k"), bytes("1")).delete(bytes("k")).put(bytes("k"), bytes("2"))
                    .put(bytes("j"), bytes("x")).delete(bytes("j")), 10);
            assertThat(string(db.get(bytes("k")))).isEqualTo("2");
            assertThat(db.get(bytes("j"))).as("the delete came last").isNull();
            assertThat(db.stats().lastSequence()).isEqualTo(10);
            assertThatThrownBy(() -> db.write(new WriteBatch().put(bytes("k"), bytes("3")), 10))
                    .isInstanceOf(EngineException.class).hasMessageContaining("not above")
                    .extracting(e -> ((EngineException) e).code()).isEqualTo(EngineException.Code.INVALID_ARGUMENT);
            assertThat(string(db.get(bytes("k")))).as("the refused batch changed nothing").isEqualTo("2");
            db.write(new WriteBatch().setAppliedMarker(bytes("m")), 15); // e.g. a Raft entry with no data
            assertThat(db.stats().lastSequence()).isEqualTo(15);
            db.put(bytes("auto"), bytes("v"));
            assertThat(db.stats().lastSequence()).as("assigned sequences continue after chosen ones").isEqualTo(16);
            try (Snapshot s = db.snapshot()) {
                db.write(new WriteBatch().put(bytes("k"), bytes("after")), 100);
                assertThat(string(s.get(bytes("k")))).isEqualTo("2");
            }
            assertThatThrownBy(() -> db.write(new WriteBatch().put(bytes("x"), bytes("y")), 0))
                    .isInstanceOf(EngineException.class).hasMessageContaining("outside");
        }
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            assertThat(string(db.get(bytes("k")))).as("recovered from the log").isEqualTo("after");
            assertThat(db.get(bytes("j"))).isNull();
            assertThat(db.stats().lastSequence()).isEqualTo(100);
        }
    }

    @Test
    void concurrentSyncWritersShareFsyncs() throws Exception {
        int threads = 8;
        int perThread = 200;
        try (Engine db = Engine.open(dir, EngineOptions.builder().walMode(WalMode.SYNC).build())) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        db.put(bytes("t" + thread + "-" + i), bytes("v" + i));
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();
            EngineStats s = db.stats();
            assertThat(s.walSyncs()).as("group commit: one fsync covers several writers")
                    .isPositive().isLessThan(threads * perThread);
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < perThread; i++) {
                    assertThat(string(db.get(bytes("t" + t + "-" + i)))).isEqualTo("v" + i);
                }
            }
        }
    }

    @Test
    void writesSlowDownWhenLevel0BacksUp() {
        EngineOptions options = EngineModelTest.smallOptions(WalMode.NO_SYNC).toBuilder()
                .level0CompactionTrigger(1).level0SlowdownTrigger(1).level0StopTrigger(2).build();
        try (Engine db = Engine.open(dir, options)) {
            byte[] value = new byte[1000];
            for (int i = 0; i < 5000; i++) {
                db.put(key(i), value);
            }
            EngineStats s = db.stats();
            assertThat(s.flushes()).isGreaterThan(20);
            assertThat(s.stallSlowdowns()).as("writes were delayed while L0 had files").isPositive();
            assertThat(s.stallMicros()).isPositive();
            assertThat(s.writesStopped()).isFalse();
            assertThat(db.get(key(4999))).isEqualTo(value);
        }
    }

    @Test
    void statsDescribeWhatWasWritten() {
        try (Engine db = Engine.open(dir, EngineModelTest.smallOptions(WalMode.NO_SYNC))) {
            byte[] value = bytes("x".repeat(200));
            for (int i = 0; i < 3000; i++) {
                db.put(key(i), value);
            }
            db.compactRange(null, null);
            EngineStats s = db.stats();
            assertThat(s.userBytesWritten()).as("keys and values only").isEqualTo(3000L * (11 + 200));
            assertThat(s.walBytesWritten()).isGreaterThan(s.userBytesWritten());
            assertThat(s.flushBytesWritten()).isPositive();
            assertThat(s.writeAmplification()).isGreaterThan(1);
            assertThat(s.totalBytes()).isGreaterThanOrEqualTo(s.liveBytes()).isPositive();
            assertThat(s.spaceAmplification()).isGreaterThanOrEqualTo(1);
            EngineStats.LevelStats bottom = s.levels().stream().filter(l -> l.files() > 0).reduce((a, b) -> b).orElseThrow();
            assertThat(bottom.compressionRatio()).as("the bottom level is zstd-compressed").isGreaterThan(2);
            assertThat(s.lastSequence()).isEqualTo(3000);
        }
    }

    @Test
    void compressionPolicyCanChangeOnALiveEngine() {
        try (Engine db = Engine.open(dir, EngineModelTest.smallOptions(WalMode.NO_SYNC))) {
            byte[] value = bytes("compressible ".repeat(20));
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), value);
            }
            db.compactRange(null, null);
            double zstdRatio = bottomRatio(db);
            db.setCompressionPolicy(CompressionPolicy.uniform(Codec.NONE));
            assertThat(db.compressionPolicy()).isEqualTo(CompressionPolicy.uniform(Codec.NONE));
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), value);
            }
            db.compactRange(null, null);
            assertThat(zstdRatio).isGreaterThan(3);
            assertThat(bottomRatio(db)).as("rewritten uncompressed").isLessThan(1.01);
            assertThat(db.get(key(5))).isEqualTo(value);
        }
    }

    private static double bottomRatio(Engine db) {
        return db.stats().levels().stream().filter(l -> l.files() > 0).reduce((a, b) -> b).orElseThrow().compressionRatio();
    }

    @Test
    void nullArgumentsAreRejected() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            assertThatThrownBy(() -> db.put(null, bytes("v"))).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> db.put(bytes("k"), null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> db.get(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> db.write(null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Test
    void badOptionsNameTheValue() {
        assertThatThrownBy(() -> EngineOptions.builder().blockSize(10).build())
                .isInstanceOf(EngineException.class).hasMessageContaining("blockSize").hasMessageContaining("10");
        assertThatThrownBy(() -> EngineOptions.builder().level0SlowdownTrigger(2).level0CompactionTrigger(4).build())
                .hasMessageContaining("level0SlowdownTrigger");
        assertThat(EngineOptions.defaults().maxBytesForLevel(3)).isEqualTo(64L * 1024 * 1024 * 100);
    }
}
