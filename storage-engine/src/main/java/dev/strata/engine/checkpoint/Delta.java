package dev.strata.engine.checkpoint;

import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.vlog.ValueLogFileMetadata;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files one flush (or one ingest) added, which hold exactly the writes with sequences in
 * {@code (fromExclusive, toInclusive]} that were still visible in that memtable: an interval of
 * the incremental chain. A node at sequence {@code fromExclusive} that ingests these files as L0
 * tables has every write up to {@code toInclusive}.
 *
 * @param appliedMarker the applied marker durable with the flush, or null
 * @param tables        the L0 tables, by the numbers the writing engine gave them
 * @param valueLogs     the value logs those tables point into that the flush wrote
 */
public record Delta(long fromExclusive, long toInclusive, byte[] appliedMarker, List<VersionEdit.NewFile> tables,
                    List<ValueLogFileMetadata> valueLogs) {

    public Delta {
        tables = List.copyOf(tables);
        valueLogs = List.copyOf(valueLogs);
    }

    /** The files with their content ids. */
    public List<CheckpointFile> files() {
        List<CheckpointFile> out = new ArrayList<>();
        for (VersionEdit.NewFile t : tables) {
            out.add(new CheckpointFile(CheckpointFile.Kind.TABLE, FileNames.table(Path.of(""), t.file().number()).toString(),
                    0, new ContentId(t.file().fileSize(), t.file().fileCrc())));
        }
        for (ValueLogFileMetadata m : valueLogs) {
            out.add(new CheckpointFile(CheckpointFile.Kind.VALUE_LOG, m.id().fileName(), -1,
                    new ContentId(m.fileSize(), m.fileCrc())));
        }
        return out;
    }

    public long totalBytes() {
        return files().stream().mapToLong(f -> f.content().size()).sum();
    }

    /**
     * {@code [from varint][edit]}: the edit holds the files, {@code to} as its last sequence and
     * the marker. The record the chain's log stores and a checkpoint transfer ships.
     */
    public byte[] encode() {
        VersionEdit.Builder b = VersionEdit.builder().lastSequence(toInclusive);
        if (appliedMarker != null) {
            b.appliedMarker(appliedMarker);
        }
        tables.forEach(t -> b.addFile(t.level(), t.file()));
        valueLogs.forEach(b::addValueLog);
        byte[] edit = b.build().encode();
        return new ByteSink(edit.length + 10).putVarint(fromExclusive).put(edit).toByteArray();
    }

    /** @throws dev.strata.engine.MalformedDataException when the bytes are not a delta */
    public static Delta decode(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        long from = in.getVarint();
        VersionEdit e = VersionEdit.decode(in.getBytes(in.remaining()));
        if (e.lastSequence() == null) {
            throw new ByteReader.MalformedException("delta without an end sequence");
        }
        return new Delta(from, e.lastSequence(), e.appliedMarker(), e.newFiles(), e.newValueLogs());
    }

    @Override
    public String toString() {
        return "Delta(" + fromExclusive + ", " + toInclusive + "]: " + tables.size() + " tables, " + valueLogs.size()
                + " value logs, " + totalBytes() + " bytes";
    }
}
