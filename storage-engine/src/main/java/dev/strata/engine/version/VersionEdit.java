package dev.strata.engine.version;

import dev.strata.engine.util.ByteReader;
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
 */
public record VersionEdit(Long logNumber, Long nextFileNumber, Long lastSequence, byte[] appliedMarker,
                          List<LevelFile> deletedFiles, List<NewFile> newFiles) {

    /** A file number at a level. */
    public record LevelFile(int level, long number) {}

    /** A file added at a level. */
    public record NewFile(int level, FileMetadata file) {}

    private static final int TAG_LOG_NUMBER = 1;
    private static final int TAG_NEXT_FILE_NUMBER = 2;
    private static final int TAG_LAST_SEQUENCE = 3;
    private static final int TAG_APPLIED_MARKER = 4;
    private static final int TAG_DELETED_FILE = 5;
    private static final int TAG_NEW_FILE = 6;

    public VersionEdit {
        deletedFiles = List.copyOf(deletedFiles);
        newFiles = List.copyOf(newFiles);
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
                    .putVarint(f.entries()).putVarint(f.rawDataBytes());
            putField(out, TAG_NEW_FILE, field);
        }
        return out.toByteArray();
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
                    b.addFile(level, new FileMetadata(f.getVarint(), f.getVarint(), f.getLengthPrefixed(),
                            f.getLengthPrefixed(), f.getVarint(), f.getVarint(), f.getVarint(), f.getVarint()));
                }
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

        public Builder logNumber(long v) { logNumber = v; return this; }
        public Builder nextFileNumber(long v) { nextFileNumber = v; return this; }
        public Builder lastSequence(long v) { lastSequence = v; return this; }
        public Builder appliedMarker(byte[] v) { appliedMarker = v; return this; }
        public Builder deleteFile(int level, long number) { deleted.add(new LevelFile(level, number)); return this; }
        public Builder addFile(int level, FileMetadata file) { added.add(new NewFile(level, file)); return this; }

        public VersionEdit build() {
            return new VersionEdit(logNumber, nextFileNumber, lastSequence, appliedMarker, deleted, added);
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
        return s.toString().trim() + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VersionEdit e && java.util.Objects.equals(logNumber, e.logNumber)
                && java.util.Objects.equals(nextFileNumber, e.nextFileNumber)
                && java.util.Objects.equals(lastSequence, e.lastSequence)
                && java.util.Arrays.equals(appliedMarker, e.appliedMarker)
                && deletedFiles.equals(e.deletedFiles) && newFiles.equals(e.newFiles);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(logNumber, nextFileNumber, lastSequence, deletedFiles, newFiles);
    }
}
