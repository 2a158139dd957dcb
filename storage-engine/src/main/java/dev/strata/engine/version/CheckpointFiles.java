package dev.strata.engine.version;

import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.ContentId;
import dev.strata.engine.vlog.ValueLogFileMetadata;

import java.nio.file.Path;

/** The shipped description of an engine file: its name, its level, and its size and CRC as content id. */
final class CheckpointFiles {
    private CheckpointFiles() {}

    static CheckpointFile table(int level, FileMetadata f) {
        return new CheckpointFile(CheckpointFile.Kind.TABLE, FileNames.table(Path.of(""), f.number()).toString(), level,
                new ContentId(f.fileSize(), f.fileCrc()));
    }

    static CheckpointFile valueLog(ValueLogFileMetadata m) {
        return new CheckpointFile(CheckpointFile.Kind.VALUE_LOG, m.id().fileName(), -1,
                new ContentId(m.fileSize(), m.fileCrc()));
    }
}
