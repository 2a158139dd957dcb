package dev.strata.engine;

import dev.strata.engine.testing.DbFiles;
import dev.strata.engine.version.FileNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.strata.engine.testing.TestKeys.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Damage in every kind of file the engine writes is detected and reported with the file and
 * offset; the engine never returns wrong data instead.
 */
class CorruptionTest {
    @TempDir
    Path dir;

    private static byte[] value(int i) {
        return ("value-" + i + "-" + "x".repeat(i % 50)).getBytes();
    }

    private List<Path> files(FileNames.Kind kind) throws IOException {
        return DbFiles.ofKind(dir, kind);
    }

    @Test
    void damagedTableDataIsReportedAndNeverReturnedAsAValue() throws IOException {
        EngineOptions options = EngineModelTest.smallOptions(WalMode.NO_SYNC);
        try (Engine db = Engine.open(dir, options)) {
            for (int i = 0; i < 3000; i++) {
                db.put(key(i), value(i));
            }
            db.compactRange(null, null);
        }
        Path table = files(FileNames.Kind.TABLE).get(0);
        DbFiles.flip(table, 300); // inside the first data block
        try (Engine db = Engine.open(dir, options)) {
            int corrupt = 0;
            for (int i = 0; i < 3000; i++) {
                try {
                    byte[] v = db.get(key(i));
                    assertThat(v).as("key " + i).isEqualTo(value(i));
                } catch (CorruptionException e) {
                    assertThat(e.getMessage()).contains(table.toString()).contains("offset 0");
                    assertThat(e.file()).isEqualTo(table);
                    corrupt++;
                }
            }
            assertThat(corrupt).as("lookups that hit the damaged block").isPositive();
            assertThatThrownBy(() -> {
                try (KeyValueIterator it = db.scan(null, null)) {
                    it.forEachRemaining(kv -> { });
                }
            }).isInstanceOf(CorruptionException.class).hasMessageContaining(table.getFileName().toString());
        }
    }

    @Test
    void damagedTableFooterIsReportedOnFirstUse() throws IOException {
        EngineOptions options = EngineModelTest.smallOptions(WalMode.NO_SYNC);
        try (Engine db = Engine.open(dir, options)) {
            for (int i = 0; i < 100; i++) {
                db.put(key(i), value(i));
            }
            db.flush();
        }
        Path table = files(FileNames.Kind.TABLE).get(0);
        DbFiles.flip(table, Files.size(table) - 3);
        try (Engine db = Engine.open(dir, options)) {
            assertThatThrownBy(() -> db.get(key(5))).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining(table.toString()).hasMessageContaining("magic");
        }
    }

    @Test
    void damageInTheMiddleOfTheLogStopsTheOpen() throws IOException {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            for (int i = 0; i < 200; i++) {
                db.put(key(i), value(i));
            }
        } // the log holds everything: nothing was flushed
        Path wal = files(FileNames.Kind.WAL).get(0);
        DbFiles.flip(wal, 40);
        assertThatThrownBy(() -> Engine.open(dir, EngineOptions.defaults())).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(wal.toString()).hasMessageContaining("offset 0")
                .hasMessageContaining("valid record after it");
    }

    @Test
    void damagedLogTailIsTruncatedAndEverythingBeforeItRecovered() throws IOException {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            for (int i = 0; i < 200; i++) {
                db.put(key(i), value(i));
            }
        }
        Path wal = files(FileNames.Kind.WAL).get(0);
        long size = Files.size(wal);
        DbFiles.flip(wal, size - 5); // inside the last record: the write of key 199 was torn
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            for (int i = 0; i < 199; i++) {
                assertThat(db.get(key(i))).isEqualTo(value(i));
            }
            assertThat(db.get(key(199))).isNull();
        }
    }

    @Test
    void pointInTimeRecoveryKeepsEveryRecordBeforeTheDamageAndItsMarker() throws IOException {
        EngineOptions options = EngineOptions.builder().walMode(WalMode.NO_SYNC).walRecovery(WalRecovery.POINT_IN_TIME).build();
        try (Engine db = Engine.open(dir, options)) {
            for (int i = 0; i < 200; i++) {
                db.write(new WriteBatch().put(key(i), value(i)).setAppliedMarker(("marker-" + i).getBytes()));
            }
        } // NO_SYNC: closing syncs the log and leaves the writes in it
        Path wal = files(FileNames.Kind.WAL).get(0);
        DbFiles.flip(wal, Files.size(wal) / 2);
        int kept;
        try (Engine db = Engine.open(dir, options)) {
            kept = 0;
            while (kept < 200 && db.get(key(kept)) != null) {
                assertThat(db.get(key(kept))).isEqualTo(value(kept));
                kept++;
            }
            assertThat(kept).as("records before the damage").isBetween(1, 198);
            for (int i = kept; i < 200; i++) {
                assertThat(db.get(key(i))).as("key " + i + " after the damage").isNull();
            }
            assertThat(db.appliedMarker()).isEqualTo(("marker-" + (kept - 1)).getBytes());
            db.put(key(500), value(500));
        }
        // The replayed logs were flushed and dropped: the next open neither fails nor loses anything.
        try (Engine db = Engine.open(dir, EngineOptions.builder().walMode(WalMode.NO_SYNC).build())) {
            assertThat(db.get(key(kept - 1))).isEqualTo(value(kept - 1));
            assertThat(db.get(key(kept))).isNull();
            assertThat(db.get(key(500))).isEqualTo(value(500));
        }
    }

    @Test
    void pointInTimeRecoveryStopsAtATornTail() throws IOException {
        EngineOptions options = EngineOptions.builder().walMode(WalMode.NO_SYNC).walRecovery(WalRecovery.POINT_IN_TIME).build();
        try (Engine db = Engine.open(dir, options)) {
            for (int i = 0; i < 200; i++) {
                db.put(key(i), value(i));
            }
        }
        Path wal = files(FileNames.Kind.WAL).get(0);
        DbFiles.flip(wal, Files.size(wal) - 5);
        try (Engine db = Engine.open(dir, options)) {
            assertThat(db.get(key(198))).isEqualTo(value(198));
            assertThat(db.get(key(199))).isNull();
        }
    }

    @Test
    void damagedManifestStopsTheOpen() throws IOException {
        EngineOptions options = EngineModelTest.smallOptions(WalMode.NO_SYNC);
        try (Engine db = Engine.open(dir, options)) {
            for (int i = 0; i < 3000; i++) {
                db.put(key(i), value(i));
            }
            db.flush();
        }
        Path manifest = files(FileNames.Kind.MANIFEST).get(0);
        DbFiles.flip(manifest, 20);
        assertThatThrownBy(() -> Engine.open(dir, options)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(manifest.getFileName().toString());
    }

    @Test
    void orphansOfAnInterruptedFlushOrCompactionAreRemovedOnOpen() throws IOException {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            db.put(key(1), value(1));
        }
        Path orphanTable = FileNames.table(dir, 999_990);
        Path orphanTemp = FileNames.temp(dir, 999_991);
        Files.write(orphanTable, new byte[100]);
        Files.write(orphanTemp, new byte[10]);
        Path foreign = dir.resolve("operator-notes.txt");
        Files.writeString(foreign, "not ours");
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            assertThat(db.get(key(1))).isEqualTo(value(1));
            db.put(key(2), value(2));
            db.flush();
        }
        assertThat(orphanTable).doesNotExist();
        assertThat(orphanTemp).doesNotExist();
        assertThat(foreign).as("files the engine does not own are left alone").exists();
    }
}
