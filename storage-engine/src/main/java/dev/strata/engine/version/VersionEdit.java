package dev.strata.engine.version;

import dev.strata.engine.util.ByteReader;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.util.ByteSink;

import java.util.ArrayList;
import java.util.List;

/**
 * One change to the set of live files, as a manifest record (format in
 * {@code storage-engine/docs/format/manifest.md}). Appending an edit to the manifest and
 * fsyncing it is the commit point of every flush and compaction. A null field means
 * "unchanged". Encoded as tagged fields {@code [varint tag][varint length][payload]}; a tag
 * this build does not know means a newer format and is reported, never skipped.
 *
 * @param logNumber      write-ahead logs numbered below this hold nothing unflushed
 * @param nextFileNumber the next file number to hand out
 * @param lastSequence   the highest sequence number in flushed files
 * @param appliedMarker  the newest durable applied marker (opaque; the server's Raft index)
 * @param deletedFiles   files leaving a level
 * @param newFiles       files joining a level
 * @param origin         this database's id, minted at creation; names its value-log files
 * @param newValueLogs   value-log files written by the flush or compaction this edit commits
 * @param valueLogGarbage bytes of records in existing value-log files that no entry points to any more
 * @param deletedValueLogs value-log files leaving the version (nothing in them is live)
 */
public record VersionEdit(Long logNumber, Long nextFileNumber, Long lastSequence, byte[] appliedMarker,
                          List<LevelFile> deletedFiles, List<NewFile> newFiles, Long origin,
                          List<ValueLogFileMetadata> newValueLogs, List<Garbage> valueLogGarbage,
                          List<ValueLogId> deletedValueLogs) {

    /** A file number at a level. */
    public record LevelFile(int level, long number) {}

    /** A file added at a level. */
    public record NewFile(int level, FileMetadata file) {}

    /** Garbage added to a value-log file. */
    public record Garbage(ValueLogId file, long bytes) {}

    private static final int TAG_LOG_NUMBER = 1;
    private static final int TAG_NEXT_FILE_NUMBER = 2;
    private static final int TAG_LAST_SEQUENCE = 3;
    private static final int TAG_APPLIED_MARKER = 4;
    private static final int TAG_DELETED_FILE = 5;
    private static final int TAG_NEW_FILE = 6;
    private static final int TAG_ORIGIN = 7;
    private static final int TAG_NEW_VALUE_LOG = 8;
    private static final int TAG_VALUE_LOG_GARBAGE = 9;
    private static final int TAG_DELETED_VALUE_LOG = 10;

    public VersionEdit {
        deletedFiles = List.copyOf(deletedFiles);
        newFiles = List.copyOf(newFiles);
        newValueLogs = List.copyOf(newValueLogs);
        valueLogGarbage = List.copyOf(valueLogGarbage);
        deletedValueLogs = List.copyOf(deletedValueLogs);
    }

    public static Builder builder() {
        return new Builder();
    }

    public byte[] encode() {
        ByteSink out = new ByteSink(128);
        ByteSink field = new ByteSink(64);
        if (logNumber != null) {
            putField(out, TAG_LOG_NUMBER, field.putVarint(logNumber));
        }
        if (nextFileNumber != null) {
            putField(out, TAG_NEXT_FILE_NUMBER, field.putVarint(nextFileNumber));
        }
        if (lastSequence != null) {
            putField(out, TAG_LAST_SEQUENCE, field.putVarint(lastSequence));
        }
        if (appliedMarker != null) {
            putField(out, TAG_APPLIED_MARKER, field.put(appliedMarker));
        }
        for (LevelFile d : deletedFiles) {
            putField(out, TAG_DELETED_FILE, field.putVarint(d.level()).putVarint(d.number()));
        }
        for (NewFile n : newFiles) {
            FileMetadata f = n.file();
            field.putVarint(n.level()).putVarint(f.number()).putVarint(f.fileSize())
                    .putLengthPrefixed(f.smallest()).putLengthPrefixed(f.largest())
                    .putVarint(f.smallestSequence()).putVarint(f.largestSequence())
                    .putVarint(f.entries()).putVarint(f.rawDataBytes()).putVarint(f.valueLogs().size());
            for (ValueLogId id : f.valueLogs()) {
                putId(field, id);
            }
            field.putInt(f.fileCrc());
            putField(out, TAG_NEW_FILE, field);
        }
        if (origin != null) {
            putField(out, TAG_ORIGIN, field.putLong(origin));
        }
        for (ValueLogFileMetadata m : newValueLogs) {
            putId(field, m.id());
            field.putVarint(m.fileSize()).putVarint(m.entries()).putVarint(m.recordBytes()).putInt(m.fileCrc());
            if (m.provisionalBytes() > 0) {
                field.putVarint(m.provisionalBytes()); // a trailing part older manifests lack: 0 when absent
            }
            putField(out, TAG_NEW_VALUE_LOG, field);
        }
        for (Garbage g : valueLogGarbage) {
            putId(field, g.file());
            putField(out, TAG_VALUE_LOG_GARBAGE, field.putVarint(g.bytes()));
        }
        for (ValueLogId id : deletedValueLogs) {
            putId(field, id);
            putField(out, TAG_DELETED_VALUE_LOG, field);
        }
        return out.toByteArray();
    }

    private static void putId(ByteSink field, ValueLogId id) {
        field.putLong(id.origin()).putVarint(id.number());
    }

    private static ValueLogId getId(ByteReader f) {
        return new ValueLogId(f.getLong(), f.getVarint());
    }

    private static void putField(ByteSink out, int tag, ByteSink field) {
        out.putVarint(tag).putLengthPrefixed(field.array(), 0, field.size());
        field.reset();
    }

    /**
     * Decodes an edit.
     *
     * @throws ByteReader.MalformedException when the bytes are not a valid edit (the caller
     *         reports corruption with the manifest's name)
     */
    public static VersionEdit decode(byte[] record) {
        ByteReader in = new ByteReader(record);
        Builder b = builder();
        while (in.hasRemaining()) {
            int tag = in.getVarintInt();
            ByteReader f = new ByteReader(in.getLengthPrefixed());
            switch (tag) {
                case TAG_LOG_NUMBER -> b.logNumber(f.getVarint());
                case TAG_NEXT_FILE_NUMBER -> b.nextFileNumber(f.getVarint());
                case TAG_LAST_SEQUENCE -> b.lastSequence(f.getVarint());
                case TAG_APPLIED_MARKER -> b.appliedMarker(f.getBytes(f.remaining()));
                case TAG_DELETED_FILE -> b.deleteFile(f.getVarintInt(), f.getVarint());
                case TAG_NEW_FILE -> {
                    int level = f.getVarintInt();
                    long number = f.getVarint();
                    long size = f.getVarint();
                    byte[] smallest = f.getLengthPrefixed();
                    byte[] largest = f.getLengthPrefixed();
                    long smallestSeq = f.getVarint();
                    long largestSeq = f.getVarint();
                    long entries = f.getVarint();
                    long raw = f.getVarint();
                    int refs = f.getVarintInt();
                    List<ValueLogId> logs = new ArrayList<>(Math.min(refs, 1024));
                    for (int i = 0; i < refs; i++) {
                        logs.add(getId(f));
                    }
                    b.addFile(level, new FileMetadata(number, size, smallest, largest, smallestSeq, largestSeq, entries,
                            raw, logs, f.getInt()));
                }
                case TAG_ORIGIN -> b.origin(f.getLong());
                case TAG_NEW_VALUE_LOG -> b.addValueLog(new ValueLogFileMetadata(getId(f), f.getVarint(), f.getVarint(),
                        f.getVarint(), f.getInt(), f.remaining() > 0 ? f.getVarint() : 0));
                case TAG_VALUE_LOG_GARBAGE -> b.addGarbage(getId(f), f.getVarint());
                case TAG_DELETED_VALUE_LOG -> b.deleteValueLog(getId(f));
                default -> throw new ByteReader.MalformedException("unknown version edit field " + tag);
            }
        }
        return b.build();
    }

    /** Collects an edit's fields. */
    public static final class Builder {
        private Long logNumber;
        private Long nextFileNumber;
        private Long lastSequence;
        private byte[] appliedMarker;
        private final List<LevelFile> deleted = new ArrayList<>();
        private final List<NewFile> added = new ArrayList<>();
        private Long origin;
        private final List<ValueLogFileMetadata> newValueLogs = new ArrayList<>();
        private final List<Garbage> garbage = new ArrayList<>();
        private final List<ValueLogId> deletedValueLogs = new ArrayList<>();

        public Builder logNumber(long v) { logNumber = v; return this; }
        public Builder nextFileNumber(long v) { nextFileNumber = v; return this; }
        public Builder lastSequence(long v) { lastSequence = v; return this; }
        public Builder appliedMarker(byte[] v) { appliedMarker = v; return this; }
        public Builder deleteFile(int level, long number) { deleted.add(new LevelFile(level, number)); return this; }
        public Builder addFile(int level, FileMetadata file) { added.add(new NewFile(level, file)); return this; }
        public Builder origin(long v) { origin = v; return this; }
        public Builder addValueLog(ValueLogFileMetadata m) { newValueLogs.add(m); return this; }
        public Builder addGarbage(ValueLogId id, long bytes) { garbage.add(new Garbage(id, bytes)); return this; }
        public Builder deleteValueLog(ValueLogId id) { deletedValueLogs.add(id); return this; }

        public VersionEdit build() {
            return new VersionEdit(logNumber, nextFileNumber, lastSequence, appliedMarker, deleted, added, origin,
                    newValueLogs, garbage, deletedValueLogs);
        }
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("VersionEdit[");
        if (logNumber != null) s.append("log=").append(logNumber).append(' ');
        if (nextFileNumber != null) s.append("next=").append(nextFileNumber).append(' ');
        if (lastSequence != null) s.append("seq=").append(lastSequence).append(' ');
        if (appliedMarker != null) s.append("marker=").append(appliedMarker.length).append("B ");
        deletedFiles.forEach(d -> s.append("-L").append(d.level()).append('#').append(d.number()).append(' '));
        newFiles.forEach(n -> s.append("+L").append(n.level()).append(n.file()).append(' '));
        if (origin != null) s.append("origin=").append(Long.toHexString(origin)).append(' ');
        newValueLogs.forEach(m -> s.append("+vlog ").append(m).append(' '));
        valueLogGarbage.forEach(g -> s.append("garbage ").append(g.file()).append('+').append(g.bytes()).append(' '));
        deletedValueLogs.forEach(id -> s.append("-vlog ").append(id).append(' '));
        return s.toString().trim() + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VersionEdit e && java.util.Objects.equals(logNumber, e.logNumber)
                && java.util.Objects.equals(nextFileNumber, e.nextFileNumber)
                && java.util.Objects.equals(lastSequence, e.lastSequence)
                && java.util.Arrays.equals(appliedMarker, e.appliedMarker)
                && deletedFiles.equals(e.deletedFiles) && newFiles.equals(e.newFiles)
                && java.util.Objects.equals(origin, e.origin) && newValueLogs.equals(e.newValueLogs)
                && valueLogGarbage.equals(e.valueLogGarbage) && deletedValueLogs.equals(e.deletedValueLogs);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(logNumber, nextFileNumber, lastSequence, deletedFiles, newFiles);
    }
}
