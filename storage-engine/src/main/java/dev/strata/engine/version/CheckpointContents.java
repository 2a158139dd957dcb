package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.wal.LogReader;
import dev.strata.engine.wal.LogWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link CheckpointManifest} as the engine writes and restores it: the tables and value logs
 * themselves, with the metadata a version edit needs. On disk a record log (CRC-framed, see
 * {@code wal.md}) with one record, a version edit of the whole state, the same encoding a
 * manifest starts with.
 */
public record CheckpointContents(long sequence, byte[] appliedMarker, long origin, List<VersionEdit.NewFile> tables,
                                 List<ValueLogFile> valueLogs) implements CheckpointManifest {

    public CheckpointContents {
        tables = List.copyOf(tables);
        valueLogs = List.copyOf(valueLogs);
    }

    /** The contents of any manifest; one this engine did not make is read back from its encoding. */
    public static CheckpointContents of(CheckpointManifest m) {
        return m instanceof CheckpointContents c ? c : decode(m.encode());
    }

    @Override
    public List<CheckpointFile> files() {
        List<CheckpointFile> out = new ArrayList<>();
        for (VersionEdit.NewFile t : tables) {
            out.add(CheckpointFiles.table(t.level(), t.file()));
        }
        for (ValueLogFile v : valueLogs) {
            out.add(CheckpointFiles.valueLog(v.metadata()));
        }
        return out;
    }

    @Override
    public byte[] encode() {
        VersionEdit.Builder b = VersionEdit.builder().lastSequence(sequence).origin(origin);
        if (appliedMarker != null) {
            b.appliedMarker(appliedMarker);
        }
        tables.forEach(t -> b.addFile(t.level(), t.file()));
        for (ValueLogFile v : valueLogs) {
            b.addValueLog(v.metadata());
            if (v.garbageBytes() > 0) {
                b.addGarbage(v.metadata().id(), v.garbageBytes());
            }
        }
        return b.build().encode();
    }

    /** @throws dev.strata.engine.MalformedDataException when the bytes are not a checkpoint manifest */
    public static CheckpointContents decode(byte[] bytes) {
        VersionEdit e = VersionEdit.decode(bytes);
        if (e.lastSequence() == null || e.origin() == null) {
            throw new ByteReader.MalformedException("checkpoint manifest without sequence or origin");
        }
        List<ValueLogFile> logs = new ArrayList<>();
        for (var m : e.newValueLogs()) {
            long garbage = e.valueLogGarbage().stream().filter(g -> g.file().equals(m.id()))
                    .mapToLong(VersionEdit.Garbage::bytes).sum();
            logs.add(new ValueLogFile(m, garbage));
        }
        return new CheckpointContents(e.lastSequence(), e.appliedMarker(), e.origin(), e.newFiles(), logs);
    }

    @Override
    public void writeTo(Path dir) throws IOException {
        try (LogWriter w = LogWriter.create(dir.resolve(FILE_NAME))) {
            w.addRecord(encode());
            w.sync();
        }
    }

    /**
     * Reads {@code dir/CHECKPOINT}.
     *
     * @throws CorruptionException when it is damaged or incomplete
     */
    public static CheckpointContents readFrom(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        try (LogReader r = new LogReader(file)) {
            byte[] record = r.next();
            if (record == null) {
                throw new CorruptionException(file, 0, "checkpoint manifest is empty or torn");
            }
            try {
                return decode(record);
            } catch (ByteReader.MalformedException e) {
                throw new CorruptionException(file, 0, "checkpoint manifest malformed: " + e.getMessage());
            }
        }
    }
}
