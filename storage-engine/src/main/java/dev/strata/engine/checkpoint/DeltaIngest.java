package dev.strata.engine.checkpoint;

import dev.strata.engine.EngineException;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogFileMetadata;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves the staged files of received deltas into an engine: each file verified against its
 * content id, tables renumbered into the engine's own file numbers (protected as pending outputs
 * until the edit is applied), value logs under their cluster-wide names (protected likewise). The result is the
 * manifest edit that adds them, all as L0 tables, and the delta record that continues the
 * engine's own chain. Sequence numbers, which every replica shares, order the ingested tables
 * against the local ones.
 */
public final class DeltaIngest {
    /** What an ingest adds. */
    public record Result(List<VersionEdit.NewFile> tables, List<ValueLogFileMetadata> valueLogs, long toSequence,
                         byte[] appliedMarker) {}

    private DeltaIngest() {}

    /**
     * @param staging     the directory the deltas' files were received into, under their names
     * @param deltas      contiguous deltas, oldest first
     * @param current     the engine's current version (referenced by the caller)
     * @throws EngineException with code INVALID_ARGUMENT when the deltas are not contiguous or a
     *         value log they bring is already live here
     */
    public static Result stage(Path staging, List<Delta> deltas, Path dataDir, Path valueLogDir, VersionSet versions,
                               Version current) throws IOException {
        if (deltas.isEmpty()) {
            throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "no deltas to ingest");
        }
        for (int i = 1; i < deltas.size(); i++) {
            if (deltas.get(i).fromExclusive() != deltas.get(i - 1).toInclusive()) {
                throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "deltas are not contiguous: "
                        + deltas.get(i - 1) + " then " + deltas.get(i));
            }
        }
        for (Delta d : deltas) {
            for (CheckpointFile f : d.files()) {
                StagedFiles.verify(staging.resolve(f.name()), f.content());
            }
            for (ValueLogFileMetadata m : d.valueLogs()) {
                if (current.valueLogs().containsKey(m.id())) {
                    throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "value log " + m.id()
                            + " is already live here; ingesting it again would count its records twice");
                }
            }
        }
        List<VersionEdit.NewFile> tables = new ArrayList<>();
        List<ValueLogFileMetadata> logs = new ArrayList<>();
        try {
            for (Delta d : deltas) {
                for (VersionEdit.NewFile t : d.tables()) {
                    FileMetadata f = t.file();
                    long number = versions.newPendingOutput();
                    tables.add(new VersionEdit.NewFile(0, new FileMetadata(number, f.fileSize(), f.smallest(), f.largest(),
                            f.smallestSequence(), f.largestSequence(), f.entries(), f.rawDataBytes(), f.valueLogs(),
                            f.fileCrc())));
                    Path source = staging.resolve(FileNames.table(Path.of(""), f.number()).toString());
                    Files.move(source, FileNames.table(dataDir, number), StandardCopyOption.ATOMIC_MOVE);
                }
                for (ValueLogFileMetadata m : d.valueLogs()) {
                    versions.protectIngestedValueLog(m.id()); // until the edit adds it
                    logs.add(m);
                    Files.move(staging.resolve(m.id().fileName()), m.id().path(valueLogDir), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException | RuntimeException e) {
            release(versions, new Result(tables, logs, 0, null)); // what was moved in becomes an orphan, deleted later
            throw e;
        }
        VersionSet.syncDirectory(dataDir);
        if (!valueLogDir.equals(dataDir)) {
            VersionSet.syncDirectory(valueLogDir);
        }
        Delta last = deltas.get(deltas.size() - 1);
        return new Result(tables, logs, last.toInclusive(), last.appliedMarker());
    }

    /** Ends the protection of what {@link #stage} moved in, when its edit will not be applied. */
    public static void release(VersionSet versions, Result r) {
        r.tables().forEach(t -> versions.releasePendingOutput(t.file().number()));
        r.valueLogs().forEach(m -> versions.releaseIngestedValueLog(m.id()));
    }
}
