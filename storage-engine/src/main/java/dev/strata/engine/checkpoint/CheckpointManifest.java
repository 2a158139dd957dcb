package dev.strata.engine.checkpoint;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.ValueLogFile;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.wal.LogReader;
import dev.strata.engine.wal.LogWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a checkpoint holds: every table (with its level) and value log (with its garbage) of one
 * version, the sequence everything up to which it contains, and the applied marker durable with
 * it. Stored as a file {@code CHECKPOINT}: a record log (CRC-framed, see {@code wal.md}) with one
 * record, a version edit of the whole state, the same encoding a manifest starts with (format
 * in {@code storage-engine/docs/format/checkpoint.md}).
 *
 * @param sequence      every write up to this sequence is in the checkpoint's files, none after
 * @param appliedMarker the applied marker durable with those writes (the server's Raft term and index), or null
 * @param origin        the id of the database that wrote it
 */
public record CheckpointManifest(long sequence, byte[] appliedMarker, long origin, List<VersionEdit.NewFile> tables,
                                 List<ValueLogFile> valueLogs) {
    public static final String FILE_NAME = "CHECKPOINT";

    public CheckpointManifest {
        tables = List.copyOf(tables);
        valueLogs = List.copyOf(valueLogs);
    }

    /** Every file with its content id, tables first. */
    public List<CheckpointFile> files() {
        List<CheckpointFile> out = new ArrayList<>();
        for (VersionEdit.NewFile t : tables) {
            FileMetadata f = t.file();
            out.add(new CheckpointFile(CheckpointFile.Kind.TABLE, FileNames.table(Path.of(""), f.number()).toString(),
                    t.level(), new ContentId(f.fileSize(), f.fileCrc())));
        }
        for (ValueLogFile v : valueLogs) {
            out.add(new CheckpointFile(CheckpointFile.Kind.VALUE_LOG, v.metadata().id().fileName(), -1,
                    new ContentId(v.metadata().fileSize(), v.metadata().fileCrc())));
        }
        return out;
    }

    /** Bytes of all its files. */
    public long totalBytes() {
        return files().stream().mapToLong(f -> f.content().size()).sum();
    }

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
    public static CheckpointManifest decode(byte[] bytes) {
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
        return new CheckpointManifest(e.lastSequence(), e.appliedMarker(), e.origin(), e.newFiles(), logs);
    }

    /** Writes {@code dir/CHECKPOINT} and fsyncs it. */
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
    public static CheckpointManifest readFrom(Path dir) throws IOException {
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
