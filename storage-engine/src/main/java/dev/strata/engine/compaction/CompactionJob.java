package dev.strata.engine.compaction;

import dev.strata.engine.EngineException;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.iterator.MergingIterator;
import dev.strata.engine.sst.TableBuilder;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.LevelIterator;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueSeparator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Runs one {@link Compaction}: merges the inputs, drops what {@link ObsoleteEntryFilter} allows,
 * writes the outputs with the output level's codec and returns the edit that swaps inputs for
 * outputs. The edit is the commit point: until the caller applies it the outputs are invisible,
 * and a crash leaves them as orphans that the next open deletes.
 */
public final class CompactionJob {
    /**
     * What a finished job produced.
     *
     * @param bytesWritten         table bytes written
     * @param valueLogBytesWritten value-log bytes written (separated and relocated values)
     * @param relocatedBytes       value-log record bytes moved out of files being garbage-collected
     */
    public record Result(VersionEdit edit, List<FileMetadata> outputs, long bytesRead, long bytesWritten,
                         long valueLogBytesWritten, long relocatedBytes, long droppedEntries) {}

    private final Path dir;
    private final VersionSet versions;
    private final TableCache tableCache;
    private final EngineOptions options;

    public CompactionJob(Path dir, VersionSet versions, TableCache tableCache, EngineOptions options) {
        this.dir = dir;
        this.versions = versions;
        this.tableCache = tableCache;
        this.options = options;
    }

    /**
     * Runs {@code c}, picked from {@code base} (which the caller keeps referenced until this returns).
     *
     * @param smallestSnapshot the oldest sequence a reader may read at
     * @param values           separates large values and relocates those of files being collected
     * @param cancelled        polled while merging; when true the job abandons its outputs and
     *                         throws {@link EngineException} with code CLOSED
     */
    public Result run(Compaction c, Version base, long smallestSnapshot, CompressionPolicy policy,
                      ValueSeparator values, BooleanSupplier cancelled) throws IOException {
        VersionEdit.Builder edit = VersionEdit.builder();
        for (FileMetadata f : c.inputs()) {
            edit.deleteFile(c.level(), f.number());
        }
        for (FileMetadata f : c.outputInputs()) {
            edit.deleteFile(c.outputLevel(), f.number());
        }
        if (c.trivialMove()) {
            FileMetadata f = c.inputs().get(0);
            edit.addFile(c.outputLevel(), f);
            return new Result(edit.build(), List.of(f), 0, 0, 0, 0, 0);
        }

        TableBuilder.Options tableOptions = new TableBuilder.Options(options.blockSize(), options.blockRestartInterval(),
                options.bloomBitsPerKey(), policy.codecFor(c.outputLevel(), c.bottommost()), policy.zstdLevel());
        TableOutputs outputs = new TableOutputs(dir, versions, tableOptions, options.targetFileSize(),
                c.grandparents(), CompactionPicker.maxGrandparentOverlap(options));
        ObsoleteEntryFilter filter = new ObsoleteEntryFilter(smallestSnapshot, baseLevelCheck(base, c.outputLevel()));
        try (InternalIterator input = mergedInputs(c)) {
            long n = 0;
            for (input.seekToFirst(); input.valid(); input.next()) {
                if ((++n & 1023) == 0 && cancelled.getAsBoolean()) {
                    throw new EngineException(EngineException.Code.CLOSED, c + " cancelled: the engine is closing");
                }
                byte[] key = input.key();
                if (filter.keep(key)) {
                    ValueSeparator.Entry out = values.keep(key, input.value());
                    outputs.add(out.key(), out.value());
                } else {
                    values.dropped(key, input.value());
                }
            }
            List<ValueLogFileMetadata> logs = values.finish();
            List<FileMetadata> written = outputs.finish();
            for (FileMetadata f : written) {
                edit.addFile(c.outputLevel(), f);
            }
            logs.forEach(edit::addValueLog);
            values.garbage().forEach(edit::addGarbage);
            return new Result(edit.build(), written, c.inputBytes(), outputs.bytesWritten(), values.bytesWritten(),
                    values.relocatedBytes(), filter.droppedEntries());
        } catch (IOException | RuntimeException e) {
            for (ThrowingRunnable cleanup : List.<ThrowingRunnable>of(outputs::abandon, values::abandon)) {
                try {
                    cleanup.run();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private interface ThrowingRunnable {
        void run() throws IOException;
    }

    private InternalIterator mergedInputs(Compaction c) {
        List<InternalIterator> children = new ArrayList<>();
        if (c.level() == 0) {
            for (FileMetadata f : c.inputs()) {
                children.add(tableCache.iterator(f));
            }
        } else {
            children.add(new LevelIterator(c.inputs(), tableCache));
        }
        if (!c.outputInputs().isEmpty()) {
            children.add(new LevelIterator(c.outputInputs(), tableCache));
        }
        return new MergingIterator(children);
    }

    /**
     * True for a user key that no level below {@code outputLevel} covers: a tombstone for it
     * written at the output level has nothing left to hide. An {@code outputLevel} of -1 (a
     * flush, checked against every table) also looks at L0.
     */
    public static Predicate<byte[]> baseLevelCheck(Version v, int outputLevel) {
        return userKey -> {
            for (int level = outputLevel + 1; level < v.numLevels(); level++) {
                if (level == 0) {
                    for (FileMetadata f : v.files(0)) {
                        if (f.overlaps(userKey, userKey)) {
                            return false;
                        }
                    }
                } else if (v.levelCovers(level, userKey)) {
                    return false;
                }
            }
            return true;
        };
    }
}
