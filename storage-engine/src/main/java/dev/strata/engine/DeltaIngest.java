package dev.strata.engine;

import dev.strata.engine.cache.BlockCache;
import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.checkpoint.StagedFiles;
import dev.strata.engine.compaction.TableOutputs;
import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.sst.FilterStats;
import dev.strata.engine.sst.TableBuilder;
import dev.strata.engine.sst.TableReader;
import dev.strata.engine.util.Directories;
import dev.strata.engine.version.DeltaContents;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.vlog.ValuePointer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves the staged files of received deltas into an engine, as L0 tables ordered against the
 * local ones by the sequence numbers every replica shares.
 *
 * <p>The engine takes only the writes it lacks. The first delta usually starts before the
 * engine's last sequence (a follower stops anywhere, a delta ends where a flush did), and an
 * entry it already holds must not arrive twice: two entries with one key and sequence, pointing
 * into two value logs, would break the exact garbage count compaction keeps. So a table whose
 * sequences all lie at or below that point is left out, and one that straddles it is rewritten
 * without those entries (values and pointers copied as they are). Every other table is renumbered
 * into the engine's own file numbers. A value log comes in under its cluster-wide name only when
 * a table it brings points into it, with the records no such table points to counted as its
 * garbage from the start, so garbage collection reclaims them like any other.
 *
 * <p>Every file is verified against its content id first; everything moved in is protected from
 * obsolete-file deletion (as a pending output) until the edit that adds it is applied.
 */
final class DeltaIngest {
    /** What an ingest adds. */
    public record Result(List<VersionEdit.NewFile> tables, List<ValueLogFileMetadata> valueLogs,
                         Map<ValueLogId, Long> garbage, long toSequence, byte[] appliedMarker) {}

    private DeltaIngest() {}

    /**
     * @param staging       the directory the deltas' files were received into, under their names
     * @param received      contiguous deltas, oldest first
     * @param holdsUpTo     the engine holds every write up to this sequence
     * @param current       the engine's current version (referenced by the caller)
     * @param tableOptions  how to write a table rewritten without what the engine holds
     * @throws EngineException with code INVALID_ARGUMENT when the deltas are not contiguous or a
     *         value log they bring is already live here; CORRUPTION when a file does not match
     *         its content id or a table points into a value log the deltas do not bring
     */
    public static Result stage(Path staging, List<Delta> received, long holdsUpTo, Path dataDir, Path valueLogDir,
                               VersionSet versions, Version current, TableBuilder.Options tableOptions) throws IOException {
        // What is checked below is what is ingested: the engine's own reading of each delta.
        List<DeltaContents> deltas = received.stream().map(DeltaContents::of).toList();
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
                StagedFiles.verify(staging, f);
            }
        }
        Map<ValueLogId, ValueLogFileMetadata> brought = new HashMap<>();
        deltas.forEach(d -> d.valueLogs().forEach(m -> brought.put(m.id(), m)));

        List<VersionEdit.NewFile> tables = new ArrayList<>();
        List<ValueLogFileMetadata> logs = new ArrayList<>();
        Map<ValueLogId, Long> garbage = new HashMap<>();
        try {
            Map<ValueLogId, Long> referenced = new HashMap<>();
            for (DeltaContents d : deltas) {
                for (VersionEdit.NewFile t : d.tables()) {
                    FileMetadata f = t.file();
                    if (f.largestSequence() <= holdsUpTo) {
                        continue; // every write in it is here already
                    }
                    Path source = staging.resolve(FileNames.table(Path.of(""), f.number()).toString());
                    if (f.smallestSequence() <= holdsUpTo) {
                        for (FileMetadata kept : rewriteAbove(source, f.number(), holdsUpTo, dataDir, versions, tableOptions,
                                referenced)) {
                            tables.add(new VersionEdit.NewFile(0, kept));
                        }
                    } else {
                        long number = versions.newPendingOutput();
                        tables.add(new VersionEdit.NewFile(0, new FileMetadata(number, f.fileSize(), f.smallest(),
                                f.largest(), f.smallestSequence(), f.largestSequence(), f.entries(), f.rawDataBytes(),
                                f.valueLogs(), f.fileCrc())));
                        Path target = FileNames.table(dataDir, number);
                        Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
                        countPointers(target, number, referenced);
                    }
                }
            }
            for (Map.Entry<ValueLogId, Long> r : referenced.entrySet()) {
                ValueLogFileMetadata m = brought.get(r.getKey());
                if (m == null) {
                    throw new CorruptionException(staging, 0, "a received table points into value log " + r.getKey()
                            + ", which the deltas do not bring");
                }
                if (r.getValue() > m.recordBytes()) {
                    throw new CorruptionException(staging.resolve(m.id().fileName()), 0, "received tables point to "
                            + r.getValue() + " bytes of its " + m.recordBytes() + " record bytes");
                }
                if (current.valueLogs().containsKey(m.id())) {
                    throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "value log " + m.id()
                            + " is already live here; ingesting it again would count its records twice");
                }
            }
            for (ValueLogFileMetadata m : brought.values()) {
                long used = referenced.getOrDefault(m.id(), 0L);
                if (used == 0) {
                    continue; // only writes the engine holds point into it
                }
                versions.protectIngestedValueLog(m.id()); // until the edit adds it
                logs.add(m);
                Files.move(staging.resolve(m.id().fileName()), m.id().path(valueLogDir), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
                if (used < m.recordBytes()) {
                    garbage.put(m.id(), m.recordBytes() - used);
                }
            }
        } catch (IOException | RuntimeException e) {
            // what was moved in or written becomes an orphan, deleted later
            release(versions, new Result(tables, logs, garbage, 0, null));
            throw e;
        }
        Directories.sync(dataDir);
        if (!valueLogDir.equals(dataDir)) {
            Directories.sync(valueLogDir);
        }
        Delta last = deltas.get(deltas.size() - 1);
        return new Result(tables, logs, garbage, last.toInclusive(), last.appliedMarker());
    }

    /** Writes the entries of {@code source} newer than {@code holdsUpTo} as new tables, counting their pointers. */
    private static List<FileMetadata> rewriteAbove(Path source, long number, long holdsUpTo, Path dataDir,
                                                   VersionSet versions, TableBuilder.Options tableOptions,
                                                   Map<ValueLogId, Long> referenced) throws IOException {
        TableOutputs outputs = new TableOutputs(dataDir, versions, tableOptions, Long.MAX_VALUE, List.of(), Long.MAX_VALUE);
        TableReader reader = TableReader.open(source, number, new FilterStats(), new BlockCache(0));
        try (InternalIterator it = reader.iterator()) {
            for (it.seekToFirst(); it.valid(); it.next()) {
                if (InternalKey.sequenceOf(it.key()) > holdsUpTo) {
                    outputs.add(it.key(), it.value());
                    countPointer(it.key(), it.value(), referenced);
                }
            }
            return outputs.finish();
        } catch (IOException | RuntimeException e) {
            outputs.abandon();
            throw e;
        } finally {
            reader.release();
        }
    }

    private static void countPointers(Path table, long number, Map<ValueLogId, Long> referenced) throws IOException {
        TableReader reader = TableReader.open(table, number, new FilterStats(), new BlockCache(0));
        try (InternalIterator it = reader.iterator()) {
            for (it.seekToFirst(); it.valid(); it.next()) {
                countPointer(it.key(), it.value(), referenced);
            }
        } finally {
            reader.release();
        }
    }

    private static void countPointer(byte[] key, byte[] value, Map<ValueLogId, Long> referenced) {
        if (InternalKey.typeCodeOf(key) == ValueType.VALUE_POINTER.code()) {
            ValuePointer p = ValuePointer.decode(value);
            referenced.merge(p.file(), (long) p.length(), Long::sum);
        }
    }

    /** Ends the protection of what {@link #stage} moved in, when its edit will not be applied. */
    public static void release(VersionSet versions, Result r) {
        r.tables().forEach(t -> versions.releasePendingOutput(t.file().number()));
        r.valueLogs().forEach(m -> versions.releaseIngestedValueLog(m.id()));
    }
}
