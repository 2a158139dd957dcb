package dev.strata.engine.compaction;

import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.sst.TableBuilder;
import dev.strata.engine.sst.TableProperties;
import dev.strata.engine.util.FileWriter;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.vlog.ValuePointer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Writes the sorted output of a flush or compaction into one or more tables. A new table is
 * started before a new user key when the current one has reached the target size or overlaps
 * too much of the level below the output; versions of one user key always stay in one table,
 * so a point lookup needs at most one table per level.
 *
 * <p>Output file numbers are registered as pending with the version set, so obsolete-file
 * deletion cannot remove them before the edit that adds them is applied (applying it ends the
 * protection). Not thread-safe.
 */
public final class TableOutputs {
    private final Path dir;
    private final VersionSet versions;
    private final TableBuilder.Options tableOptions;
    private final long targetFileSize;
    private final List<FileMetadata> grandparents;
    private final long maxGrandparentOverlap;
    private final List<FileMetadata> finished = new ArrayList<>();
    private final List<Long> pending = new ArrayList<>();

    private TableBuilder builder;
    private long builderNumber;
    private final TreeSet<ValueLogId> valueLogs = new TreeSet<>();
    private byte[] lastKey;
    private int grandparentIndex;
    private long grandparentOverlap;
    private long bytesWritten;

    /**
     * @param targetFileSize  cut size; {@link Long#MAX_VALUE} for one table (a flush)
     * @param grandparents    files of the level below the output, by key; empty for none
     */
    public TableOutputs(Path dir, VersionSet versions, TableBuilder.Options tableOptions, long targetFileSize,
                        List<FileMetadata> grandparents, long maxGrandparentOverlap) {
        this.dir = dir;
        this.versions = versions;
        this.tableOptions = tableOptions;
        this.targetFileSize = targetFileSize;
        this.grandparents = grandparents;
        this.maxGrandparentOverlap = maxGrandparentOverlap;
    }

    /** Adds an entry; entries come in internal-key order. */
    public void add(byte[] internalKey, byte[] value) throws IOException {
        boolean newUserKey = lastKey == null || InternalKey.compareUserKeys(lastKey, internalKey) != 0;
        if (newUserKey) {
            boolean tooMuchOverlap = advanceGrandparents(internalKey);
            if (builder != null && (builder.estimatedFileSize() >= targetFileSize || tooMuchOverlap)) {
                finishCurrent();
            }
        }
        if (builder == null) {
            builderNumber = versions.newPendingOutput();
            pending.add(builderNumber);
            builder = new TableBuilder(FileWriter.create(FileNames.table(dir, builderNumber)), tableOptions);
        }
        builder.add(internalKey, value);
        if (InternalKey.typeCodeOf(internalKey) == ValueType.VALUE_POINTER.code()) {
            valueLogs.add(ValuePointer.decode(value).file());
        }
        lastKey = internalKey;
    }

    /** Moves past grandparents entirely before {@code key}; true when the current table should end. */
    private boolean advanceGrandparents(byte[] key) {
        boolean seenKey = lastKey != null;
        while (grandparentIndex < grandparents.size()
                && InternalKey.compareUserKeys(key, grandparents.get(grandparentIndex).largest()) > 0) {
            if (seenKey) {
                grandparentOverlap += grandparents.get(grandparentIndex).fileSize();
            }
            grandparentIndex++;
        }
        if (grandparentOverlap > maxGrandparentOverlap) {
            grandparentOverlap = 0;
            return true;
        }
        return false;
    }

    private void finishCurrent() throws IOException {
        TableProperties p = builder.finish();
        long size = builder.fileSize();
        bytesWritten += size;
        finished.add(new FileMetadata(builderNumber, size, p.smallestKey(), p.largestKey(), p.smallestSequence(),
                p.largestSequence(), p.entries(), p.rawDataBytes(), List.copyOf(valueLogs), builder.fileCrc()));
        valueLogs.clear();
        builder = null;
    }

    /** Finishes the last table and returns all of them (possibly none, when every entry was dropped). */
    public List<FileMetadata> finish() throws IOException {
        if (builder != null) {
            finishCurrent();
        }
        return List.copyOf(finished);
    }

    /** Deletes every table written or started; for a failed job. */
    public void abandon() throws IOException {
        if (builder != null) {
            builder.abandon();
            builder = null;
        }
        for (FileMetadata f : finished) {
            Files.deleteIfExists(FileNames.table(dir, f.number()));
        }
        pending.forEach(versions::releasePendingOutput);
        pending.clear();
    }

    public long bytesWritten() {
        return bytesWritten;
    }
}
