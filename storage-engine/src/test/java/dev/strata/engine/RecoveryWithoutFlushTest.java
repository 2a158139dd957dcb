package dev.strata.engine;

import dev.strata.engine.testing.DbFiles;
import dev.strata.engine.version.FileNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link EngineOptions#flushAfterRecovery()} off: an open keeps what it replayed in the memtable. */
class RecoveryWithoutFlushTest {
    @TempDir
    Path dir;

    private final EngineOptions keeping = EngineOptions.builder().walMode(WalMode.NO_SYNC)
            .walRecovery(WalRecovery.POINT_IN_TIME).flushAfterRecovery(false).build();

    private static byte[] key(int i) {
        return String.format("key-%05d", i).getBytes();
    }

    private static byte[] value(int i) {
        return ("value-" + i + "-" + "x".repeat(i % 50)).getBytes();
    }

    private static byte[] marker(int i) {
        return ("marker-" + i).getBytes();
    }

    private static void write(Engine db, int from, int to) {
        for (int i = from; i < to; i++) {
            db.write(new WriteBatch().put(key(i), value(i)).setAppliedMarker(marker(i)));
        }
    }

    private static void assertHolds(Engine db, int to) {
        for (int i = 0; i < to; i++) {
            assertThat(db.get(key(i))).as("key " + i).isEqualTo(value(i));
        }
    }

    private List<Path> files(FileNames.Kind kind) throws IOException {
        return DbFiles.ofKind(dir, kind);
    }

    @Test
    void theReplayedWritesStayInTheMemtableAndTheirLogsUntilTheNextFlush() throws IOException {
        try (Engine db = Engine.open(dir, keeping)) {
            write(db, 0, 300);
        } // closing syncs the log and leaves the writes in it
        List<Path> firstLogs = files(FileNames.Kind.WAL);

        try (Engine db = Engine.open(dir, keeping)) {
            assertThat(files(FileNames.Kind.TABLE)).as("no table written by the open").isEmpty();
            assertThat(files(FileNames.Kind.WAL)).as("the replayed logs are kept").containsAll(firstLogs);
            assertHolds(db, 300);
            assertThat(db.appliedMarker()).as("nothing is durable in tables yet").isNull();
            assertThat(db.lastAppliedMarker()).isEqualTo(marker(299));
            write(db, 300, 500);
            assertThat(db.lastAppliedMarker()).isEqualTo(marker(499));
        }

        // A second open replays the kept logs and the one written after the first open, in order.
        try (Engine db = Engine.open(dir, keeping)) {
            assertThat(files(FileNames.Kind.TABLE)).isEmpty();
            assertHolds(db, 500);
            assertThat(db.lastAppliedMarker()).isEqualTo(marker(499));
            assertThat(db.lastSequence()).isEqualTo(500);
            write(db, 500, 520);
            db.flush();
            assertThat(files(FileNames.Kind.TABLE)).hasSize(1);
            assertThat(db.appliedMarker()).isEqualTo(marker(519));
            assertThat(db.lastAppliedMarker()).isEqualTo(marker(519));
            assertThat(files(FileNames.Kind.WAL)).as("the flush made every earlier log obsolete").hasSize(1)
                    .doesNotContainAnyElementsOf(firstLogs);
        }
        try (Engine db = Engine.open(dir, keeping)) {
            assertHolds(db, 520);
            assertThat(db.lastSequence()).isEqualTo(520);
        }
    }

    @Test
    void theMemtableItKeepsSwitchesAndFlushesOnceFull() throws IOException {
        EngineOptions small = keeping.toBuilder().writeBufferSize(64 * 1024).build();
        try (Engine db = Engine.open(dir, small)) {
            write(db, 0, 500); // about 50 KiB: stays in the memtable
            assertThat(files(FileNames.Kind.TABLE)).isEmpty();
        }
        try (Engine db = Engine.open(dir, small)) {
            assertThat(files(FileNames.Kind.TABLE)).isEmpty();
            write(db, 500, 2000);
            db.waitForCompactions();
            assertThat(files(FileNames.Kind.TABLE)).as("the kept memtable was flushed once writes filled it").isNotEmpty();
            assertThat(db.appliedMarker()).isNotNull();
            assertHolds(db, 2000);
        }
        try (Engine db = Engine.open(dir, small)) {
            assertHolds(db, 2000);
        }
    }

    @Test
    void aReplayThatMetDamageIsFlushedSoTheDamagedLogIsNotReadAgain() throws IOException {
        try (Engine db = Engine.open(dir, keeping)) {
            write(db, 0, 200);
        }
        Path wal = files(FileNames.Kind.WAL).get(0);
        DbFiles.flip(wal, Files.size(wal) / 2);
        int kept = 0;
        try (Engine db = Engine.open(dir, keeping)) {
            while (kept < 200 && db.get(key(kept)) != null) {
                kept++;
            }
            assertThat(kept).as("records before the damage").isBetween(1, 198);
            assertThat(files(FileNames.Kind.TABLE)).as("flushed despite the option").hasSize(1);
            assertThat(files(FileNames.Kind.WAL)).doesNotContain(wal);
            assertThat(db.appliedMarker()).isEqualTo(marker(kept - 1));
            write(db, kept, 200); // what another log (Raft's) would replay
        }
        try (Engine db = Engine.open(dir, keeping)) {
            assertHolds(db, 200);
        }
    }
}
