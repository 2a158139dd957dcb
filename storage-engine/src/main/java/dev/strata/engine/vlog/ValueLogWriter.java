package dev.strata.engine.vlog;

import dev.strata.engine.compress.Codec;
import dev.strata.engine.util.ByteSink;
import dev.strata.engine.util.Coding;
import dev.strata.engine.util.FileWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes one value-log file: a header, then a record per value in the order given (flush and
 * compaction give them in key order, so a scan later reads the file front to back). Each value
 * is compressed on its own with the codec given when that saves at least 1/8, and stored raw
 * otherwise. {@link #finish()} fsyncs. Not thread-safe.
 */
public final class ValueLogWriter {
    private final ValueLogId id;
    private final FileWriter out;
    private final ByteSink record = new ByteSink(4096);
    private final Codec provisional;
    private long entries;
    private long provisionalBytes;
    private boolean closed;

    private ValueLogWriter(ValueLogId id, FileWriter out, Codec provisional) {
        this.id = id;
        this.out = out;
        this.provisional = provisional;
    }

    /** Creates {@code dir/<id>.vlog} and writes its header; fails if it exists. */
    public static ValueLogWriter create(Path dir, ValueLogId id) throws IOException {
        return create(dir, id, null);
    }

    /**
     * Creates {@code dir/<id>.vlog} and writes its header; fails if it exists. Records stored with
     * {@code provisional} (an adaptive policy's faster codec; null for none) are counted as
     * provisional in the file's metadata.
     */
    public static ValueLogWriter create(Path dir, ValueLogId id, Codec provisional) throws IOException {
        FileWriter out = FileWriter.create(id.path(dir));
        byte[] header = new byte[ValueLogFormat.HEADER_SIZE];
        Coding.putLong(header, 0, ValueLogFormat.MAGIC);
        Coding.putInt(header, 8, ValueLogFormat.VERSION_1);
        Coding.putLong(header, 12, id.origin());
        Coding.putLong(header, 20, id.number());
        Coding.putInt(header, 28, ValueLogFormat.crc(header, 0, 28));
        out.write(header);
        return new ValueLogWriter(id, out, provisional);
    }

    public ValueLogId id() {
        return id;
    }

    /** Bytes written so far. */
    public long size() {
        return out.position();
    }

    /** Appends a record; returns the pointer to it. */
    public ValuePointer add(byte[] userKey, byte[] value, Codec codec, int zstdLevel) throws IOException {
        byte[] compressed = codec.compress(value, 0, value.length, zstdLevel);
        return addStored(userKey, compressed != null ? codec : Codec.NONE, compressed != null ? compressed : value);
    }

    /**
     * Appends a record whose value is already stored with {@code codec} (a relocated one): it
     * is written as it is, without decompressing and compressing it again.
     */
    public ValuePointer addStored(byte[] userKey, Codec used, byte[] stored) throws IOException {
        record.reset();
        record.putInt(0).put(used.id()).putLengthPrefixed(userKey).put(stored);
        byte[] b = record.array();
        Coding.putInt(b, 0, ValueLogFormat.crc(b, 4, record.size() - 4));
        long offset = out.position();
        out.write(b, 0, record.size());
        entries++;
        if (used == provisional) {
            provisionalBytes += record.size();
        }
        return new ValuePointer(id, offset, record.size());
    }

    public long entries() {
        return entries;
    }

    /** Fsyncs and closes the file. */
    public ValueLogFileMetadata finish() throws IOException {
        out.sync();
        out.close();
        closed = true;
        return new ValueLogFileMetadata(id, out.position(), entries, out.position() - ValueLogFormat.HEADER_SIZE, out.crc(),
                provisionalBytes);
    }

    /** Closes and deletes the partial file. */
    public void abandon() throws IOException {
        if (!closed) {
            closed = true;
            out.close();
        }
        Files.deleteIfExists(out.path());
    }
}
