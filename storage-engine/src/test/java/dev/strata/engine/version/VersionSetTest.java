package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.strata.engine.version.VersionEditTest.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VersionSetTest {
    @TempDir
    Path dir;

    private VersionSet open() throws IOException {
        return VersionSet.open(dir, dir, 7, 1 << 20);
    }

    private Path currentManifest() throws IOException {
        return dir.resolve(Files.readString(dir.resolve(FileNames.CURRENT)).strip());
    }

    @Test
    void newDirectoryGetsAnEmptyTreeAndACurrentFile() throws IOException {
        try (VersionSet vs = open()) {
            assertThat(vs.current().deepestNonEmptyLevel()).isEqualTo(-1);
            assertThat(dir.resolve(FileNames.CURRENT)).exists();
            assertThat(currentManifest()).exists();
        }
    }

    /** A table file of the metadata's size on disk, so the manifest's presence check passes. */
    private FileMetadata onDisk(VersionSet vs, String from, String to) throws IOException {
        FileMetadata f = file(vs.newFileNumber(), from, to);
        Files.write(FileNames.table(dir, f.number()), new byte[(int) f.fileSize()]);
        return f;
    }

    @Test
    void editsSurviveReopen() throws IOException {
        try (VersionSet vs = open()) {
            vs.logAndApply(VersionEdit.builder().addFile(0, onDisk(vs, "a", "c")).lastSequence(10)
                    .logNumber(4).appliedMarker("term1:10".getBytes(StandardCharsets.UTF_8)).build());
            long moved = vs.current().files(0).get(0).number();
            vs.logAndApply(VersionEdit.builder().deleteFile(0, moved).addFile(2, vs.current().files(0).get(0)).build());
            vs.logAndApply(VersionEdit.builder().addFile(1, onDisk(vs, "d", "f")).lastSequence(20).build());
        }
        try (VersionSet vs = open()) {
            Version v = vs.current();
            assertThat(v.files(0)).isEmpty();
            assertThat(v.files(1)).hasSize(1);
            assertThat(v.files(2)).hasSize(1);
            assertThat(vs.lastSequence()).isEqualTo(20);
            assertThat(vs.logNumber()).isEqualTo(4);
            assertThat(new String(vs.appliedMarker(), StandardCharsets.UTF_8)).isEqualTo("term1:10");
            long next = vs.newFileNumber();
            assertThat(next).as("numbers are never reused").isGreaterThan(v.files(1).get(0).number());
        }
    }

    @Test
    void manifestRollsOverWhenItGrowsTooLarge() throws IOException {
        try (VersionSet vs = VersionSet.open(dir, dir, 7, 64 * 1024)) {
            long first = vs.manifestNumber();
            for (int i = 0; i < 8000; i++) {
                vs.logAndApply(VersionEdit.builder().lastSequence(i).build());
            }
            assertThat(vs.manifestNumber()).isGreaterThan(first);
            assertThat(Files.size(currentManifest())).isLessThan(64 * 1024 + 4096);
        }
        try (VersionSet vs = open()) {
            assertThat(vs.lastSequence()).isEqualTo(7999);
        }
    }

    @Test
    void overlappingFilesInASortedLevelAreRefused() throws IOException {
        try (VersionSet vs = open()) {
            vs.logAndApply(VersionEdit.builder().addFile(1, file(vs.newFileNumber(), "a", "m")).build());
            assertThatThrownBy(() -> vs.logAndApply(VersionEdit.builder().addFile(1, file(vs.newFileNumber(), "k", "z")).build()))
                    .isInstanceOf(CorruptionException.class).hasMessageContaining("overlap in L1");
        }
    }

    @Test
    void damagedManifestIsReported() throws IOException {
        try (VersionSet vs = open()) {
            for (int i = 0; i < 5; i++) {
                vs.logAndApply(VersionEdit.builder().addFile(0, file(vs.newFileNumber(), "a", "b")).build());
            }
        }
        Path manifest = currentManifest();
        try (RandomAccessFile f = new RandomAccessFile(manifest.toFile(), "rw")) {
            f.seek(12); // inside the first record, with records after it
            int b = f.read();
            f.seek(12);
            f.write(b ^ 0x10);
        }
        assertThatThrownBy(this::open).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(manifest.getFileName().toString()).hasMessageContaining("offset 0");
    }

    @Test
    void missingOrResizedTableIsReportedAtOpen() throws IOException {
        FileMetadata f;
        try (VersionSet vs = open()) {
            f = onDisk(vs, "a", "b");
            vs.logAndApply(VersionEdit.builder().addFile(1, f).build());
        }
        Path table = FileNames.table(dir, f.number());
        Files.write(table, new byte[10]);
        assertThatThrownBy(this::open).isInstanceOf(CorruptionException.class).hasMessageContaining("the manifest says");
        Files.delete(table);
        assertThatThrownBy(this::open).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(table.toString()).hasMessageContaining("missing");
    }

    @Test
    void missingOrGarbledCurrentIsReported() throws IOException {
        try (VersionSet vs = open()) {
            vs.logAndApply(VersionEdit.builder().addFile(0, file(vs.newFileNumber(), "a", "b")).build());
        }
        Files.writeString(dir.resolve(FileNames.CURRENT), "garbage\n");
        assertThatThrownBy(this::open).isInstanceOf(CorruptionException.class).hasMessageContaining("does not name a manifest");
        Files.delete(dir.resolve(FileNames.CURRENT));
        assertThatThrownBy(this::open).isInstanceOf(CorruptionException.class).hasMessageContaining("CURRENT is missing");
    }

    @Test
    void releasedVersionsLeaveTheLiveSet() throws IOException {
        try (VersionSet vs = open()) {
            vs.logAndApply(VersionEdit.builder().addFile(0, file(vs.newFileNumber(), "a", "b")).build());
            long old = vs.current().files(0).get(0).number();
            Version pinned = vs.acquireCurrent();
            vs.logAndApply(VersionEdit.builder().deleteFile(0, old).build());
            assertThat(vs.liveFiles().isTableLive(old)).as("a reader still holds it").isTrue();
            vs.release(pinned);
            assertThat(vs.liveFiles().isTableLive(old)).isFalse();
        }
    }

    /**
     * Obsolete-file deletion reads the live set while edits install versions: a file that every
     * version lists (here moved back and forth between levels) must never look obsolete, even
     * when the version holding it is replaced during the read.
     */
    @Test
    void aFileEveryVersionListsIsAlwaysLiveWhileVersionsChange() throws Exception {
        try (VersionSet vs = open()) {
            vs.logAndApply(VersionEdit.builder().addFile(0, file(vs.newFileNumber(), "a", "b")).build());
            FileMetadata f = vs.current().files(0).get(0);
            int moves = 20_000;
            Thread mover = new Thread(() -> {
                for (int i = 0; i < moves; i++) {
                    int from = i % 2 == 0 ? 0 : 1;
                    vs.logAndApply(VersionEdit.builder().deleteFile(from, f.number()).addFile(1 - from, f).build());
                }
            });
            mover.start();
            int reads = 0;
            int missed = 0;
            while (mover.isAlive() || reads == 0) {
                reads++;
                if (!vs.liveFiles().isTableLive(f.number())) {
                    missed++;
                }
            }
            mover.join();
            assertThat(missed).as("reads of the live set that missed the file, of %d", reads).isZero();
        }
    }

    @Test
    void fileNamesParseBack() {
        assertThat(FileNames.parse("000123.sst")).isEqualTo(new FileNames.Parsed(FileNames.Kind.TABLE, 123));
        assertThat(FileNames.parse("000007.wal")).isEqualTo(new FileNames.Parsed(FileNames.Kind.WAL, 7));
        assertThat(FileNames.parse("MANIFEST-000009")).isEqualTo(new FileNames.Parsed(FileNames.Kind.MANIFEST, 9));
        assertThat(FileNames.parse("CURRENT").kind()).isEqualTo(FileNames.Kind.CURRENT);
        assertThat(FileNames.parse("notes.txt")).isNull();
        assertThat(FileNames.parse("12x.sst")).isNull();
        assertThat(FileNames.parse(".sst")).isNull();
    }
}
