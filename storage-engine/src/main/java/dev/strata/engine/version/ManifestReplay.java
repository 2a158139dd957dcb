package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.wal.LogReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A manifest read back edit by edit: the tree's files and the scalars the last edits set. A
 * torn last record is the edit a crash interrupted and is ignored; any other damage, or an edit
 * that does not fit the tree before it, refuses the open.
 */
final class ManifestReplay {
    private static final Logger LOG = LoggerFactory.getLogger(ManifestReplay.class);

    final long manifestNumber;
    final VersionBuilder files;
    long logNumber;
    long nextFileNumber;
    long lastSequence;
    byte[] appliedMarker;
    long origin;

    private ManifestReplay(long manifestNumber, VersionBuilder files) {
        this.manifestNumber = manifestNumber;
        this.files = files;
    }

    /**
     * Replays the manifest {@code CURRENT} names and checks the tree it describes: no overlap
     * below L0, every file present at its recorded size.
     *
     * @throws CorruptionException when the manifest is damaged or describes an impossible tree
     */
    static ManifestReplay of(Path dir, Path valueLogDir, int numLevels) throws IOException {
        long number = CurrentFile.read(dir);
        Path manifestPath = FileNames.manifest(dir, number);
        ManifestReplay replay = new ManifestReplay(number, VersionBuilder.empty(numLevels));
        boolean sawNextFile = false;
        try (LogReader reader = new LogReader(manifestPath)) {
            long recordStart = 0;
            for (byte[] record; (record = reader.next()) != null; recordStart = reader.validLength()) {
                VersionEdit edit;
                try {
                    edit = VersionEdit.decode(record);
                    replay.files.apply(edit);
                } catch (ByteReader.MalformedException e) {
                    throw new CorruptionException(manifestPath, recordStart, "version edit malformed: " + e.getMessage());
                } catch (IllegalStateException e) {
                    throw new CorruptionException(manifestPath, recordStart, "version edit does not apply: " + e.getMessage());
                }
                replay.applyScalars(edit);
                sawNextFile |= edit.nextFileNumber() != null;
            }
            if (reader.tornTail()) {
                LOG.warn("manifest {} has a torn tail at offset {} ({}); the edit being written at the crash is ignored",
                        manifestPath, reader.validLength(), reader.tornTailReason());
            }
        } catch (NoSuchFileException e) {
            throw new CorruptionException(manifestPath, 0, "the manifest CURRENT names does not exist");
        }
        if (!sawNextFile) {
            throw new CorruptionException(manifestPath, 0, "manifest has no next-file-number record");
        }
        if (replay.origin == 0) {
            throw new CorruptionException(manifestPath, 0, "manifest has no origin id");
        }
        replay.nextFileNumber = Math.max(replay.nextFileNumber, number + 1);
        replay.files.checkConsistency(manifestPath);
        replay.files.checkFilesPresent(dir, valueLogDir);
        return replay;
    }

    private void applyScalars(VersionEdit edit) {
        if (edit.logNumber() != null) {
            logNumber = edit.logNumber();
        }
        if (edit.nextFileNumber() != null) {
            nextFileNumber = edit.nextFileNumber();
        }
        if (edit.lastSequence() != null) {
            lastSequence = edit.lastSequence();
        }
        if (edit.appliedMarker() != null) {
            appliedMarker = edit.appliedMarker();
        }
        if (edit.origin() != null) {
            origin = edit.origin();
        }
    }
}
