package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueLogId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The files of a tree, changed edit by edit (LevelDB's {@code VersionSet::Builder}): the manifest
 * is replayed into one at open, and every new version is a copy of the current one with one edit
 * applied. Not thread-safe; {@link VersionSet} owns each instance for one change.
 */
final class VersionBuilder {
    final List<List<FileMetadata>> levels;
    final SortedMap<ValueLogId, ValueLogFile> valueLogs;

    private VersionBuilder(List<List<FileMetadata>> levels, SortedMap<ValueLogId, ValueLogFile> valueLogs) {
        this.levels = levels;
        this.valueLogs = valueLogs;
    }

    static VersionBuilder empty(int numLevels) {
        List<List<FileMetadata>> levels = new ArrayList<>(numLevels);
        for (int i = 0; i < numLevels; i++) {
            levels.add(new ArrayList<>());
        }
        return new VersionBuilder(levels, new TreeMap<>());
    }

    static VersionBuilder of(Version v) {
        List<List<FileMetadata>> levels = new ArrayList<>(v.numLevels());
        for (int l = 0; l < v.numLevels(); l++) {
            levels.add(new ArrayList<>(v.files(l)));
        }
        return new VersionBuilder(levels, new TreeMap<>(v.valueLogs()));
    }

    /**
     * Applies an edit; returns the value-log files it left with nothing live (already removed).
     *
     * @throws IllegalStateException when the edit does not fit the files
     */
    List<ValueLogId> apply(VersionEdit edit) {
        for (VersionEdit.LevelFile d : edit.deletedFiles()) {
            if (d.level() < 0 || d.level() >= levels.size()
                    || !levels.get(d.level()).removeIf(f -> f.number() == d.number())) {
                throw new IllegalStateException("edit deletes table " + d.number() + " absent from L" + d.level());
            }
        }
        for (VersionEdit.NewFile n : edit.newFiles()) {
            if (n.level() < 0 || n.level() >= levels.size()) {
                throw new IllegalStateException("table at level " + n.level() + " of " + levels.size());
            }
            levels.get(n.level()).add(n.file());
        }
        for (ValueLogFileMetadata m : edit.newValueLogs()) {
            valueLogs.put(m.id(), new ValueLogFile(m, 0));
        }
        for (VersionEdit.Garbage g : edit.valueLogGarbage()) {
            ValueLogFile f = valueLogs.get(g.file());
            if (f == null) {
                throw new IllegalStateException("garbage for value log " + g.file() + " which is not live");
            }
            ValueLogFile updated = f.plusGarbage(g.bytes());
            if (updated.garbageBytes() > updated.metadata().recordBytes()) {
                throw new IllegalStateException("value log " + g.file() + " would hold " + updated.garbageBytes()
                        + " garbage bytes of " + updated.metadata().recordBytes());
            }
            valueLogs.put(g.file(), updated);
        }
        for (ValueLogId id : edit.deletedValueLogs()) {
            if (valueLogs.remove(id) == null) {
                throw new IllegalStateException("edit deletes value log " + id + " which is not live");
            }
        }
        List<ValueLogId> emptied = new ArrayList<>();
        for (ValueLogFile f : List.copyOf(valueLogs.values())) {
            if (f.garbageBytes() == f.metadata().recordBytes()) {
                valueLogs.remove(f.metadata().id());
                emptied.add(f.metadata().id());
            }
        }
        levels.get(0).sort(Version.NEWEST_FIRST);
        for (int l = 1; l < levels.size(); l++) {
            levels.get(l).sort(Version.BY_SMALLEST_KEY);
        }
        return emptied;
    }

    /** Adds every file (and each value log's garbage) to {@code edit}: the whole tree as one edit. */
    void addAllTo(VersionEdit.Builder edit) {
        for (int l = 0; l < levels.size(); l++) {
            for (FileMetadata f : levels.get(l)) {
                edit.addFile(l, f);
            }
        }
        for (Map.Entry<ValueLogId, ValueLogFile> e : valueLogs.entrySet()) {
            edit.addValueLog(e.getValue().metadata());
            if (e.getValue().garbageBytes() > 0) {
                edit.addGarbage(e.getKey(), e.getValue().garbageBytes());
            }
        }
    }

    /** Files of L1 and deeper must not overlap: a violation means the tree would return wrong data. */
    void checkConsistency(Path source) {
        for (int l = 1; l < levels.size(); l++) {
            List<FileMetadata> files = levels.get(l);
            for (int i = 1; i < files.size(); i++) {
                if (InternalKey.compareUserKeys(files.get(i - 1).largest(), files.get(i).smallest()) >= 0) {
                    throw new CorruptionException(source, 0, "files " + files.get(i - 1) + " and " + files.get(i)
                            + " overlap in L" + l);
                }
            }
        }
    }

    /** Every file listed must exist at its recorded size, or reads would fail later and further from the cause. */
    void checkFilesPresent(Path dir, Path valueLogDir) throws IOException {
        for (List<FileMetadata> level : levels) {
            for (FileMetadata f : level) {
                checkSize(FileNames.table(dir, f.number()), f.fileSize(), "table");
            }
        }
        for (ValueLogFile f : valueLogs.values()) {
            checkSize(f.metadata().id().path(valueLogDir), f.metadata().fileSize(), "value log");
        }
    }

    private static void checkSize(Path p, long expected, String kind) throws IOException {
        if (!Files.exists(p)) {
            throw new CorruptionException(p, 0, kind + " listed in the manifest is missing");
        }
        long size = Files.size(p);
        if (size != expected) {
            throw new CorruptionException(p, Math.min(size, expected), kind + " is " + size + " bytes, the manifest says " + expected);
        }
    }
}
