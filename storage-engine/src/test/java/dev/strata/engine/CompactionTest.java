package dev.strata.engine;

import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Random;

import static dev.strata.engine.testing.TestKeys.key;
import static org.assertj.core.api.Assertions.assertThat;

/** Compaction through several levels keeps every key's newest value and drops what nothing can see. */
class CompactionTest {
    @TempDir
    Path dir;

    private static byte[] value(int i, int round) {
        byte[] v = new byte[200];
        Random rnd = new Random(i * 31L + round);
        for (int j = 0; j < v.length; j++) {
            v[j] = (byte) (j % 3 == 0 ? rnd.nextInt() : 'a' + (i % 26));
        }
        return v;
    }

    @Test
    void dataFlowsThroughSeveralLevelsAndStaysCorrect() {
        EngineOptions options = EngineModelTest.smallOptions(WalMode.NO_SYNC);
        int keys = 20_000;
        try (Engine db = Engine.open(dir, options)) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < keys; i++) {
                    int k = (i * 7919) % keys; // a scattered order, so files overlap and merge
                    db.put(key(k), value(k, round));
                }
            }
            db.flush();
            EngineStats s = db.stats();
            int deepest = s.levels().stream().filter(l -> l.files() > 0).mapToInt(EngineStats.LevelStats::level).max().orElse(0);
            assertThat(deepest).as("the tree grew past L1: " + s.levels()).isGreaterThanOrEqualTo(2);
            assertThat(s.compactions()).isPositive();
            assertThat(s.compactionBytesWritten()).isPositive();
            for (int i = 0; i < keys; i++) {
                assertThat(db.get(key(i))).as("key " + i).isEqualTo(value(i, 2));
            }
            db.compactRange(null, null);
            EngineStats after = db.stats();
            long entriesLeft = after.levels().stream().mapToLong(EngineStats.LevelStats::files).sum();
            assertThat(entriesLeft).isPositive();
            assertThat(after.spaceAmplification()).as("one version per key after a full compaction").isLessThan(1.3);
            for (int i = 0; i < keys; i += 97) {
                assertThat(db.get(key(i))).isEqualTo(value(i, 2));
            }
        }
    }

    @Test
    void deletedDataLeavesNoTablesOnceFullyCompacted() {
        try (Engine db = Engine.open(dir, EngineModelTest.smallOptions(WalMode.NO_SYNC))) {
            for (int i = 0; i < 5000; i++) {
                db.put(key(i), value(i, 0));
            }
            db.compactRange(null, null);
            for (int i = 0; i < 5000; i++) {
                db.delete(key(i));
            }
            db.compactRange(null, null);
            EngineStats s = db.stats();
            assertThat(s.levels()).allSatisfy(l -> assertThat(l.files()).as("L" + l.level()).isZero());
            try (KeyValueIterator it = db.scan(null, null)) {
                assertThat(it.hasNext()).isFalse();
            }
        }
    }

    @Test
    void aSnapshotKeepsOldVersionsThroughCompaction() {
        try (Engine db = Engine.open(dir, EngineModelTest.smallOptions(WalMode.NO_SYNC))) {
            for (int i = 0; i < 3000; i++) {
                db.put(key(i), value(i, 0));
            }
            try (Snapshot old = db.snapshot()) {
                for (int i = 0; i < 3000; i++) {
                    if (i % 2 == 0) {
                        db.delete(key(i));
                    } else {
                        db.put(key(i), value(i, 1));
                    }
                }
                db.compactRange(null, null);
                for (int i = 0; i < 3000; i += 7) {
                    assertThat(old.get(key(i))).isEqualTo(value(i, 0));
                    assertThat(db.get(key(i))).isEqualTo(i % 2 == 0 ? null : value(i, 1));
                }
            }
            long before = db.stats().totalBytes();
            db.compactRange(null, null);
            assertThat(db.stats().totalBytes()).as("old versions go once the snapshot is closed").isLessThan(before);
        }
    }

    @Test
    void bottomLevelUsesTheLongLivedCodecEvenWhenItIsLevel1() {
        EngineOptions options = EngineModelTest.smallOptions(WalMode.NO_SYNC).toBuilder().level1MaxBytes(64L << 20).build();
        try (Engine db = Engine.open(dir, options)) {
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), value(i, 0));
            }
            db.compactRange(null, null);
            EngineStats s = db.stats();
            assertThat(s.levels().get(1).files()).isPositive();
            assertThat(s.levels().get(1).compressionRatio()).as("L1 is the bottom: zstd").isGreaterThan(1.2);
            db.setCompressionPolicy(CompressionPolicy.perLevel(Codec.NONE, Codec.NONE, Codec.LZ4));
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), value(i, 1));
            }
            db.compactRange(null, null);
            assertThat(db.stats().levels().get(1).compressionRatio()).as("a fixed list leaves small databases raw")
                    .isLessThan(1.05);
        }
    }
}
