package dev.strata.engine.version;

import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;
import dev.strata.engine.vlog.ValueLogFileMetadata;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Delta} as the engine keeps and ingests it: the tables and value logs themselves, with
 * the metadata a version edit needs.
 *
 * @param tables    the L0 tables, by the numbers the writing engine gave them
 * @param valueLogs the value logs those tables point into that the flush wrote
 */
public record DeltaContents(long fromExclusive, long toInclusive, byte[] appliedMarker, List<VersionEdit.NewFile> tables,
                            List<ValueLogFileMetadata> valueLogs) implements Delta {

    public DeltaContents {
        tables = List.copyOf(tables);
        valueLogs = List.copyOf(valueLogs);
    }

    /** The contents of any delta; one this engine did not make is read back from its encoding. */
    public static DeltaContents of(Delta d) {
        return d instanceof DeltaContents c ? c : decode(d.encode());
    }

    @Override
    public List<CheckpointFile> files() {
        List<CheckpointFile> out = new ArrayList<>();
        for (VersionEdit.NewFile t : tables) {
            out.add(CheckpointFiles.table(0, t.file()));
        }
        for (ValueLogFileMetadata m : valueLogs) {
            out.add(CheckpointFiles.valueLog(m));
        }
        return out;
    }

    /** {@code [from varint][edit]}: the edit holds the files, {@code to} as its last sequence and the marker. */
    @Override
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
    public static DeltaContents decode(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        long from = in.getVarint();
        VersionEdit e = VersionEdit.decode(in.getBytes(in.remaining()));
        if (e.lastSequence() == null) {
            throw new ByteReader.MalformedException("delta without an end sequence");
        }
        return new DeltaContents(from, e.lastSequence(), e.appliedMarker(), e.newFiles(), e.newValueLogs());
    }

    @Override
    public String toString() {
        return "Delta(" + fromExclusive + ", " + toInclusive + "]: " + tables.size() + " tables, " + valueLogs.size()
                + " value logs, " + totalBytes() + " bytes";
    }
}
