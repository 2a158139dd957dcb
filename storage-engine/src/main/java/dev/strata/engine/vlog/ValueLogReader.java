package dev.strata.engine.vlog;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.EngineException;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.Coding;
import dev.strata.engine.util.FileReads;
import dev.strata.engine.util.RefCount;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Reads values from one value-log file: one positional read per value, its CRC verified (and
 * re-read once on a mismatch before corruption is declared), its key checked against the key
 * the pointer came from, then decompressed. Thread-safe. Reference counted like a table
 * reader: it starts with its owner's reference and closes when the last one is released.
 */
public final class ValueLogReader {
    private final Path path;
    private final ValueLogId id;
    private final FileChannel channel;
    private final RefCount refs;

    private ValueLogReader(Path path, ValueLogId id, FileChannel channel) {
        this.path = path;
        this.id = id;
        this.channel = channel;
        this.refs = new RefCount(this::closeChannel);
    }

    /**
     * Opens {@code dir/<id>.vlog} and verifies its header.
     *
     * @throws CorruptionException when the header is damaged or names another file
     */
    public static ValueLogReader open(Path dir, ValueLogId id) throws IOException {
        Path path = id.path(dir);
        FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
        try {
            byte[] h = FileReads.readFully(ch, path, 0, ValueLogFormat.HEADER_SIZE);
            if (Coding.getLong(h, 0) != ValueLogFormat.MAGIC) {
                throw new CorruptionException(path, 0, "bad value-log magic number");
            }
            if (ValueLogFormat.crc(h, 0, 28) != Coding.getInt(h, 28)) {
                throw new CorruptionException(path, 0, "value-log header checksum mismatch");
            }
            int version = Coding.getInt(h, 8);
            if (version != ValueLogFormat.VERSION_1) {
                throw new CorruptionException(path, 8, "unsupported value-log format version " + version);
            }
            ValueLogId inHeader = new ValueLogId(Coding.getLong(h, 12), Coding.getLong(h, 20));
            if (!inHeader.equals(id)) {
                throw new CorruptionException(path, 12, "value-log header names " + inHeader);
            }
            return new ValueLogReader(path, id, ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    public ValueLogId id() {
        return id;
    }

    public Path path() {
        return path;
    }

    /** A record as stored: its codec and the value's stored (possibly compressed) bytes. */
    public record StoredValue(Codec codec, byte[] stored) {
        /** The value itself. @throws IllegalArgumentException when the stored bytes do not decompress */
        byte[] value() {
            return codec.decompress(stored, 0, stored.length);
        }
    }

    /**
     * The value {@code pointer} points at.
     *
     * @param userKey the key of the entry holding the pointer; the record must be for it
     * @throws CorruptionException when the record fails its checksum, is malformed, or belongs to another key
     */
    public byte[] read(ValuePointer pointer, byte[] userKey) throws IOException {
        StoredValue s = readStored(pointer, userKey);
        try {
            return s.value();
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, pointer.offset(), "value-log record malformed: " + e.getMessage());
        }
    }

    /**
     * The record {@code pointer} points at, checked (checksum, key) but not decompressed: what
     * garbage collection copies into a new value log without compressing it again.
     */
    public StoredValue readStored(ValuePointer pointer, byte[] userKey) throws IOException {
        if (pointer.length() < ValueLogFormat.RECORD_PREFIX || pointer.offset() < ValueLogFormat.HEADER_SIZE) {
            throw new CorruptionException(path, pointer.offset(), "value pointer " + pointer + " is impossible");
        }
        byte[] rec = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            rec = FileReads.readFully(channel, path, pointer.offset(), pointer.length());
            if (ValueLogFormat.crc(rec, 4, rec.length - 4) == Coding.getInt(rec, 0)) {
                break;
            }
            if (attempt == 1) {
                throw new CorruptionException(path, pointer.offset(), "value-log record checksum mismatch");
            }
        }
        try {
            ByteReader in = new ByteReader(rec, 4, rec.length - 4);
            Codec codec = Codec.fromId(in.get());
            byte[] key = in.getLengthPrefixed();
            if (!Arrays.equals(key, userKey)) {
                throw new CorruptionException(path, pointer.offset(), "value-log record belongs to another key");
            }
            return new StoredValue(codec, in.getBytes(in.remaining()));
        } catch (ByteReader.MalformedException | IllegalArgumentException e) {
            throw new CorruptionException(path, pointer.offset(), "value-log record malformed: " + e.getMessage());
        }
    }

    public boolean tryAcquire() {
        return refs.tryAcquire();
    }

    public void release() {
        refs.release();
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            throw EngineException.io("closing " + path, e);
        }
    }
}
