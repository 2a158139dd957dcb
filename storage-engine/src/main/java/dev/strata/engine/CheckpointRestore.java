package dev.strata.engine;

import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.checkpoint.StagedFiles;
import dev.strata.engine.util.Directories;
import dev.strata.engine.version.CheckpointContents;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.ValueLogFile;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Seeds an empty data directory from a checkpoint's files (a backup, or what a new or wiped
 * node received): every file verified against its content id, tables keeping the numbers the
 * checkpoint gives them, value logs their cluster-wide names, and a fresh manifest that lists
 * them at their levels with their garbage. The new database gets its own origin id, so the value
 * logs it writes from then on cannot collide with the ones it received.
 */
final class CheckpointRestore {
    private CheckpointRestore() {}

    /**
     * @param from        a directory holding {@code CHECKPOINT} and every file it lists
     * @param move        move the files (a staging directory) rather than copy them (a backup)
     * @param dataDir     the engine's data directory; must hold no engine files
     * @param valueLogDir where the engine keeps value logs (may equal {@code dataDir})
     * @return the restored checkpoint's manifest
     */
    public static CheckpointManifest restore(Path from, boolean move, Path dataDir, Path valueLogDir) throws IOException {
        CheckpointContents m = CheckpointContents.readFrom(from);
        Files.createDirectories(dataDir);
        Files.createDirectories(valueLogDir);
        try (var names = Files.list(dataDir)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                if (FileNames.parse(p.getFileName().toString()) != null) {
                    throw new EngineException(EngineException.Code.INVALID_ARGUMENT,
                            "cannot restore into " + dataDir + ": it already holds " + p.getFileName());
                }
            }
        }
        long maxNumber = 0;
        for (CheckpointFile f : m.files()) {
            StagedFiles.verify(from, f);
        }
        for (VersionEdit.NewFile t : m.tables()) {
            Path target = FileNames.table(dataDir, t.file().number());
            place(from.resolve(target.getFileName()), target, move);
            maxNumber = Math.max(maxNumber, t.file().number());
        }
        for (ValueLogFile v : m.valueLogs()) {
            place(from.resolve(v.metadata().id().fileName()), v.metadata().id().path(valueLogDir), move);
        }
        Directories.sync(valueLogDir);
        VersionSet.writeInitialManifest(dataDir, m.tables(), m.valueLogs(), m.sequence(), m.appliedMarker(), maxNumber + 1);
        return m;
    }

    private static void place(Path source, Path target, boolean move) throws IOException {
        if (move) {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
        } else {
            Files.copy(source, target);
            try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
                ch.force(true); // the manifest about to name it must not outlive its bytes
            }
        }
    }
}
