package dev.strata.engine.compaction;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueLogId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class CompactionPickerTest {
    @TempDir
    Path dir;

    private final EngineOptions options = EngineOptions.builder().level0CompactionTrigger(4)
            .targetFileSize(64 * 1024).level1MaxBytes(1 << 20).build();
    private final CompactionPicker picker = new CompactionPicker(options);
    private static final ValueLogGcPolicy NO_GC = new ValueLogGcPolicy(0.5, 0);

    private static FileMetadata file(long number, String from, String to, long size) {
        return new FileMetadata(number, size, new InternalKey(from.getBytes(StandardCharsets.UTF_8), number, ValueType.VALUE).encode(),
                new InternalKey(to.getBytes(StandardCharsets.UTF_8), number, ValueType.VALUE).encode(), number, number, 1, size,
                java.util.List.of(), 0);
    }

    /** A version set whose manifest lists files that exist with the given sizes. */
    private VersionSet versions(VersionEdit.Builder edit) throws IOException {
        VersionSet vs = VersionSet.open(dir, dir, 7, 1 << 20);
        for (VersionEdit.NewFile n : edit.build().newFiles()) {
            Files.write(dev.strata.engine.version.FileNames.table(dir, n.file().number()), new byte[(int) n.file().fileSize()]);
        }
        vs.logAndApply(edit.build());
        return vs;
    }

    @Test
    void level0IsCompactedOnceItReachesTheTriggerTakingEveryFile() throws IOException {
        VersionEdit.Builder e = VersionEdit.builder();
        for (int i = 1; i <= 3; i++) {
            e.addFile(0, file(100 + i, "a", "z", 1000));
        }
        e.addFile(1, file(200, "c", "d", 1000)).addFile(1, file(201, "x", "y", 1000)).addFile(2, file(300, "a", "z", 1000));
        try (VersionSet vs = versions(e)) {
            assertThat(picker.pick(vs.current(), Set.of(), CompressionPolicy.defaults(), NO_GC, Set.of())).as("3 files < trigger 4").isNull();
            vs.logAndApply(VersionEdit.builder().addFile(0, file(104, "m", "n", 1000)).build());
            Compaction c = picker.pick(vs.current(), Set.of(), CompressionPolicy.defaults(), NO_GC, Set.of());
            assertThat(c.level()).isZero();
            assertThat(c.inputs()).hasSize(4);
            assertThat(c.outputInputs()).extracting(FileMetadata::number).containsExactlyInAnyOrder(200L, 201L);
            assertThat(c.grandparents()).extracting(FileMetadata::number).containsExactly(300L);
            assertThat(c.bottommost()).as("L2 holds data below the output").isFalse();
            assertThat(picker.pick(vs.current(), Set.of(200L), CompressionPolicy.defaults(), NO_GC, Set.of())).as("busy overlap").isNull();
        }
    }

    @Test
    void deeperLevelsAreCompactedRoundRobinByBytes() throws IOException {
        VersionEdit.Builder e = VersionEdit.builder();
        e.addFile(1, file(10, "a", "b", 600_000)).addFile(1, file(11, "c", "d", 600_000)).addFile(1, file(12, "e", "f", 600_000));
        try (VersionSet vs = versions(e)) {
            assertThat(picker.score(vs.current(), 1)).isGreaterThan(1);
            Compaction first = picker.pick(vs.current(), Set.of(), CompressionPolicy.defaults(), NO_GC, Set.of());
            Compaction second = picker.pick(vs.current(), Set.of(), CompressionPolicy.defaults(), NO_GC, Set.of());
            assertThat(first.inputs().get(0).number()).isEqualTo(10);
            assertThat(second.inputs().get(0).number()).as("the next file in key order").isEqualTo(11);
            assertThat(first.bottommost()).isTrue();
            assertThat(first.trivialMove()).as("L1 (lz4) into the bottommost level (zstd) must rewrite").isFalse();
            assertThat(picker.pendingCompactionBytes(vs.current())).isPositive();
        }
    }

    @Test
    void aCalmEngineRewritesATablePointingIntoTheFileWithTheMostProvisionalBytes() throws IOException {
        ValueLogId mostlyProvisional = new ValueLogId(7, 50);
        ValueLogId lessProvisional = new ValueLogId(7, 51);
        ValueLogId none = new ValueLogId(7, 52);
        FileMetadata pointing = new FileMetadata(10, 1000, file(10, "a", "b", 1000).smallest(), file(10, "a", "b", 1000).largest(),
                10, 10, 1, 1000, java.util.List.of(mostlyProvisional), 0);
        VersionEdit.Builder e = VersionEdit.builder().addFile(2, pointing).addFile(2, file(11, "c", "d", 1000))
                .addValueLog(new ValueLogFileMetadata(mostlyProvisional, 10_032, 10, 10_000, 0, 9_000))
                .addValueLog(new ValueLogFileMetadata(lessProvisional, 10_032, 10, 10_000, 0, 1_000))
                .addValueLog(new ValueLogFileMetadata(none, 10_032, 10, 10_000, 0));
        try (VersionSet vs = versions(e)) {
            assertThat(NO_GC.provisionalCandidates(vs.current())).containsExactly(mostlyProvisional);
            assertThat(picker.pick(vs.current(), Set.of(), CompressionPolicy.adaptive(), NO_GC, Set.of()))
                    .as("nothing due, and no recompression offered").isNull();
            Compaction c = picker.pick(vs.current(), Set.of(), CompressionPolicy.adaptive(), NO_GC, Set.of(),
                    NO_GC.provisionalCandidates(vs.current()));
            assertThat(c.reason()).isEqualTo(Compaction.Reason.RECOMPRESS);
            assertThat(c.inputs()).extracting(FileMetadata::number).containsExactly(10L);
            assertThat(c.outputLevel()).as("rewritten in place").isEqualTo(2);
            assertThat(picker.pick(vs.current(), Set.of(10L), CompressionPolicy.adaptive(), NO_GC, Set.of(),
                    Set.of(mostlyProvisional))).as("its only table busy").isNull();

            // Once every record of it is garbage (its live values moved), the next file is chosen.
            vs.logAndApply(VersionEdit.builder().addGarbage(mostlyProvisional, 10_000).build());
            assertThat(NO_GC.provisionalCandidates(vs.current())).containsExactly(lessProvisional);
        }
    }

    @Test
    void aFileWithNothingToMergeMovesWhenTheCodecsMatch() throws IOException {
        VersionEdit.Builder e = VersionEdit.builder();
        e.addFile(1, file(10, "a", "b", 600_000)).addFile(1, file(11, "c", "d", 600_000)).addFile(3, file(30, "x", "z", 100));
        try (VersionSet vs = versions(e)) {
            Compaction c = picker.pick(vs.current(), Set.of(), CompressionPolicy.uniform(Codec.LZ4), NO_GC, Set.of());
            assertThat(c.trivialMove()).isTrue();
            Compaction rewrite = picker.pick(vs.current(), Set.of(), CompressionPolicy.defaults(), NO_GC, Set.of());
            assertThat(rewrite.trivialMove()).as("L1 and L2 are both middle levels (lz4)").isTrue();
        }
    }
}
