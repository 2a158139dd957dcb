package dev.strata.engine;

import dev.strata.engine.Checkpoint;
import dev.strata.engine.DeltaChain;
import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.checkpoint.StagedFiles;
import dev.strata.engine.version.DeltaContents;
import org.junit.jupiter.api.RepeatedTest;
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

import static dev.strata.engine.testing.TestKeys.bytes;
import static dev.strata.engine.testing.TestKeys.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Checkpoints, the incremental chain and the two ways a replica catches up from them: ingesting
 * deltas, or restoring a full checkpoint. Writes use explicit sequences, as the server's (the
 * Raft index) do, so two engines given the same writes hold the same sequences.
 */
class CheckpointTest {
    @TempDir
    Path dir;

    private final Random rnd = new Random(11);
    private long sequence;
    private int keySpace = 2000;

    /** Deltas are kept generously: these databases are tiny, so 25% of their live size is a few flushes. */
    static EngineOptions options() {
        return ValueLogEngineTest.options().toBuilder().walMode(WalMode.DISABLED).deltaRetention(10).build();
    }

    /** Writes {@code n} random puts (some large, separated) and deletes at explicit sequences into every engine and the model. */
    private void write(int n, NavigableMap<byte[], byte[]> model, Engine... engines) {
        for (int i = 0; i < n; i++) {
            byte[] k = key(rnd.nextInt(keySpace));
            WriteBatch b = new WriteBatch();
            if (rnd.nextInt(10) == 0) {
                b.delete(k);
                model.remove(k);
            } else {
                byte[] v = new byte[rnd.nextInt(5) == 0 ? 600 + rnd.nextInt(3000) : rnd.nextInt(80)];
                rnd.nextBytes(v);
                b.put(k, v);
                model.put(k, v);
            }
            b.setAppliedMarker(bytes("index " + (sequence + 1)));
            sequence++;
            for (Engine e : engines) {
                e.write(b, sequence);
            }
        }
    }

    private static NavigableMap<byte[], byte[]> newModel() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    private static void copyCheckpoint(Checkpoint c, Path to) throws IOException {
        Files.createDirectories(to);
        Files.copy(c.directory().resolve(CheckpointManifest.FILE_NAME), to.resolve(CheckpointManifest.FILE_NAME));
        for (CheckpointFile f : c.files()) {
            Files.copy(c.path(f), to.resolve(f.name()));
        }
    }

    private static long stage(DeltaChain chain, List<Delta> deltas, Path staging) throws IOException {
        Files.createDirectories(staging);
        long bytes = 0;
        for (Delta d : deltas) {
            for (CheckpointFile f : d.files()) {
                Files.copy(chain.path(f), staging.resolve(f.name()));
                bytes += f.content().size();
            }
        }
        return bytes;
    }

    @Test
    void checkpointFilesOutliveCompactionAndMatchTheirContentIds() throws IOException {
        NavigableMap<byte[], byte[]> model = newModel();
        try (Engine db = Engine.open(dir.resolve("a"), options())) {
            write(3000, model, db);
            Checkpoint c = db.checkpoint();
            assertThat(c.sequence()).isEqualTo(sequence);
            assertThat(new String(c.appliedMarker())).isEqualTo("index " + sequence);
            assertThat(c.files()).isNotEmpty().anyMatch(f -> f.kind() == CheckpointFile.Kind.VALUE_LOG);
            write(3000, model, db);
            db.compactRange(null, null);
            for (CheckpointFile f : c.files()) {
                StagedFiles.verify(c.path(f), f.content());
            }
            assertThat(db.checkpoint()).as("a new checkpoint for new writes").isNotSameAs(c);
            assertThat(db.checkpoint().sequence()).as("nothing new: the same checkpoint").isEqualTo(sequence);
        }
    }

    @Test
    void aRestoredBackupHoldsExactlyTheCheckpointedData() throws IOException {
        NavigableMap<byte[], byte[]> atCheckpoint;
        NavigableMap<byte[], byte[]> model = newModel();
        Path backup = dir.resolve("backup");
        try (Engine db = Engine.open(dir.resolve("a"), options())) {
            write(4000, model, db);
            db.compactRange(null, null);
            write(500, model, db);
            Checkpoint c = db.checkpoint();
            atCheckpoint = new TreeMap<>(model);
            copyCheckpoint(c, backup);
            write(500, model, db); // after the checkpoint: not in it
        }
        Path restored = dir.resolve("restored");
        CheckpointManifest m = Engine.restoreCheckpoint(backup, false, restored, options());
        assertThat(m.sequence()).isEqualTo(sequence - 500);
        try (Engine db = Engine.open(restored, options())) {
            EngineModelTest.checkScan(db.scan(null, null), atCheckpoint, "restored");
            assertThat(new String(db.appliedMarker())).isEqualTo("index " + m.sequence());
            db.verify();
            db.write(new WriteBatch().put(bytes("new"), new byte[5000]), m.sequence() + 1);
            db.flush();
        }
        assertThat(backup.resolve(CheckpointManifest.FILE_NAME)).as("a copy leaves the backup intact").exists();
        assertThatThrownBy(() -> Engine.restoreCheckpoint(backup, false, restored, options()))
                .isInstanceOf(EngineException.class).hasMessageContaining("already holds");
    }

    @Test
    void aDamagedBackupFileIsRefusedBeforeAnythingIsRestored() throws IOException {
        Path backup = dir.resolve("backup");
        try (Engine db = Engine.open(dir.resolve("a"), options())) {
            write(2000, newModel(), db);
            copyCheckpoint(db.checkpoint(), backup);
        }
        Path victim;
        try (var s = Files.list(backup)) {
            victim = s.filter(p -> p.toString().endsWith(".sst")).findFirst().orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(victim.toFile(), "rw")) {
            f.seek(10);
            f.write(f.read() ^ 1);
        }
        assertThatThrownBy(() -> Engine.restoreCheckpoint(backup, false, dir.resolve("r"), options()))
                .isInstanceOf(CorruptionException.class).hasMessageContaining(victim.getFileName().toString());
        try (var s = Files.list(dir.resolve("r"))) {
            assertThat(s.count()).as("nothing restored").isZero();
        }
    }

    @Test
    void onlyTheNewestCheckpointsAreKeptAndAPinnedOneWaits() throws IOException {
        try (Engine db = Engine.open(dir.resolve("a"), options().toBuilder().checkpointsToKeep(2).build())) {
            write(500, newModel(), db);
            Checkpoint first = db.checkpoint();
            assertThat(first.tryPin()).isTrue();
            write(500, newModel(), db);
            db.checkpoint();
            write(500, newModel(), db);
            Checkpoint third = db.checkpoint();
            assertThat(db.checkpoints()).hasSize(2).doesNotContain(first);
            assertThat(first.directory()).as("pinned: still there").exists();
            first.unpin();
            assertThat(first.directory()).doesNotExist();
            assertThat(first.tryPin()).isFalse();
            assertThat(db.latestCheckpoint()).isSameAs(third);
        }
        try (Engine db = Engine.open(dir.resolve("a"), options().toBuilder().checkpointsToKeep(2).build())) {
            assertThat(db.checkpoints()).as("checkpoints survive a restart").hasSize(2);
        }
    }

    /**
     * A follower that stopped at a checkpoint catches up by ingesting the deltas after its own
     * sequence; it also applied some writes itself (so its state overlaps the first delta), and
     * it ends identical to the leader while receiving far less than a full checkpoint. It takes
     * only the writes it lacks: its own chain records the ingest as exactly the writes after it,
     * and every value log it took counts the records it did not take as garbage
     * ({@code verify()} checks that count). Repeated: compactions racing the ingest once deleted
     * a value log being moved in.
     */
    @RepeatedTest(3)
    void aLaggingReplicaCatchesUpFromDeltas() throws IOException {
        keySpace = 20_000;
        NavigableMap<byte[], byte[]> model = newModel();
        Path followerDir = dir.resolve("follower");
        try (Engine leader = Engine.open(dir.resolve("leader"), options())) {
            write(20_000, model, leader);
            Checkpoint base = leader.checkpoint();
            Path backup = dir.resolve("base");
            copyCheckpoint(base, backup);
            Engine.restoreCheckpoint(backup, true, followerDir, options());
            long followerAt;
            try (Engine follower = Engine.open(followerDir, options())) {
                write(300, model, leader, follower); // both apply these; then the follower stops
                follower.flush();
                followerAt = sequence;
            }
            write(1000, model, leader); // the follower misses 5% of the writes
            leader.compactRange(null, null);
            Checkpoint latest = leader.checkpoint();
            List<Delta> deltas = leader.deltaChain().covering(followerAt, latest.sequence());
            assertThat(deltas).as("the chain covers the follower's gap").isNotNull().isNotEmpty();
            assertThat(deltas.get(0).fromExclusive()).as("the first delta overlaps the follower").isLessThan(followerAt);
            assertThat(DeltaContents.of(deltas.get(0)).tables()).anyMatch(t -> t.file().smallestSequence() <= followerAt);
            long shipped = stage(leader.deltaChain(), deltas, dir.resolve("staging"));
            assertThat(shipped).as("deltas ship a fraction of the full checkpoint")
                    .isLessThan(latest.manifest().totalBytes() / 5);
            try (Engine follower = Engine.open(followerDir, options())) {
                follower.ingest(dir.resolve("staging"), deltas);
                follower.verify();
                Delta ingested = follower.deltaChain().all().getLast();
                assertThat(ingested.fromExclusive()).isEqualTo(followerAt);
                assertThat(DeltaContents.of(ingested).tables()).as("no write it already held came in again").isNotEmpty()
                        .allMatch(t -> t.file().smallestSequence() > followerAt);
                EngineModelTest.checkScan(follower.scan(null, null), model, "follower after ingest");
                assertThat(new String(follower.appliedMarker())).isEqualTo("index " + latest.sequence());
                assertThat(follower.stats().lastSequence()).isEqualTo(latest.sequence());
                follower.verify();
                follower.compactRange(null, null);
                EngineModelTest.checkScan(follower.scan(null, null), model, "follower after compaction");
                follower.verify();
                write(10, model, leader, follower); // it continues with the leader's next sequences
                EngineModelTest.checkScan(follower.scan(null, null), model, "follower continues");
            }
        }
    }

    @Test
    void ingestRefusesAGapAndDamagedFilesLeavingTheEngineUnchanged() throws IOException {
        NavigableMap<byte[], byte[]> model = newModel();
        try (Engine leader = Engine.open(dir.resolve("leader"), options());
             Engine follower = Engine.open(dir.resolve("follower"), options())) {
            write(1000, model, leader, follower);
            follower.flush();
            long at = sequence;
            write(2000, model, leader);
            leader.flush();
            List<Delta> all = leader.deltaChain().covering(0, sequence);
            List<Delta> later = leader.deltaChain().covering(at + 500, sequence);
            stage(leader.deltaChain(), later, dir.resolve("later"));
            assertThatThrownBy(() -> follower.ingest(dir.resolve("later"), later.subList(1, later.size())))
                    .isInstanceOf(EngineException.class).hasMessageContaining("holds only up to");
            List<Delta> needed = leader.deltaChain().covering(at, sequence);
            Path staging = dir.resolve("staging");
            stage(leader.deltaChain(), needed, staging);
            Path victim = staging.resolve(needed.get(needed.size() - 1).files().get(0).name());
            try (RandomAccessFile f = new RandomAccessFile(victim.toFile(), "rw")) {
                f.seek(f.length() - 1);
                f.write(f.read() ^ 1);
            }
            assertThatThrownBy(() -> follower.ingest(staging, needed)).isInstanceOf(CorruptionException.class);
            assertThat(follower.stats().lastSequence()).isEqualTo(at);
            assertThat(all).isNotNull();
        }
    }

    @Test
    void theChainKeepsOnlyWhatItsBudgetAllowsAndSurvivesRestarts() throws IOException {
        EngineOptions small = options().toBuilder().deltaRetention(0.05).build();
        try (Engine db = Engine.open(dir.resolve("a"), small)) {
            for (int round = 0; round < 8; round++) {
                write(2000, newModel(), db);
                db.compactRange(null, null);
            }
            EngineStats s = db.stats();
            assertThat(s.deltaBytes()).as("unshared delta bytes within 5% of live data")
                    .isLessThanOrEqualTo((long) (0.05 * s.liveBytes()) + 1);
            assertThat(db.deltaChain().covering(0, sequence)).as("the oldest deltas were released").isNull();
        }
        long end;
        try (Engine db = Engine.open(dir.resolve("a"), small)) {
            end = db.deltaChain().end();
            assertThat(end).isEqualTo(sequence);
            assertThat(db.stats().deltasKept()).isPositive();
        }
    }
}
