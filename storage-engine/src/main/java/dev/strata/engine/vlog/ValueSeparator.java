package dev.strata.engine.vlog;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.util.ByteReader;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * What a flush or a compaction does with values on their way into new tables:
 * <ul>
 *   <li>a value of at least {@code minBlobSize} bytes moves to a value-log file written by this
 *       job, and the entry becomes a pointer (only here, never on the user's write path: the
 *       write-ahead log never refers to a value log that might not exist after a crash);</li>
 *   <li>a pointer into a file chosen for garbage collection is <em>relocated</em>: its record is
 *       read (checksum and key verified) and its stored bytes copied into this job's value log,
 *       in key order, without compressing them again, except a provisional record (stored with
 *       an adaptive policy's faster codec) in a job told to recompress, which gets the job's
 *       codec; the old record counts as garbage;</li>
 *   <li>a pointer the job drops (a shadowed version, a deleted key) counts its record as garbage
 *       of the file it points into, so garbage is exact, never sampled.</li>
 * </ul>
 * Output file numbers are protected as pending outputs until the job's edit adds them.
 * Not thread-safe: one per job.
 */
public final class ValueSeparator {
    /** An entry as it goes into the table. */
    public record Entry(byte[] key, byte[] value) {}

    private final Path dir;
    private final long origin;
    private final LongSupplier newPendingNumber;
    private final LongConsumer releasePendingNumber;
    private final ValueLogs logs;
    private final int minBlobSize;
    private final Set<ValueLogId> relocate;
    private final Codec codec;
    private final int zstdLevel;
    private final Codec provisional;
    private final boolean recompressProvisional;
    private final long fileSize;
    private final BiConsumer<ValueLogFileMetadata, Long> onFileFinished;

    private final Map<ValueLogId, Long> garbage = new HashMap<>();
    private final List<ValueLogFileMetadata> finished = new ArrayList<>();
    private final List<Long> pendingNumbers = new ArrayList<>();
    private ValueLogWriter writer;
    private long separatedBytes;
    private long relocatedBytes;
    private long relocatedIntoCurrent;
    private long recompressedBytes;
    private long bytesWritten;

    /**
     * @param minBlobSize  values this large or larger are separated; {@link Integer#MAX_VALUE} separates none
     * @param relocate     files whose live values this job moves (garbage collection); may be empty
     * @param codec        the codec tried on each value this job separates (or recompresses)
     * @param provisional  the adaptive policy's faster codec, whose records the outputs count as
     *                     provisional; null when the policy has none
     * @param recompressProvisional whether a relocated record stored with {@code provisional} is
     *                     recompressed with {@code codec} (the engine is calm) rather than copied
     * @param fileSize     a value-log output is cut once it reaches this many bytes
     * @param onFileFinished told of each output once it is fsynced, with the bytes relocated into it
     */
    public ValueSeparator(Path dir, long origin, LongSupplier newPendingNumber, LongConsumer releasePendingNumber,
                          ValueLogs logs, int minBlobSize, Set<ValueLogId> relocate, Codec codec, int zstdLevel,
                          Codec provisional, boolean recompressProvisional, long fileSize,
                          BiConsumer<ValueLogFileMetadata, Long> onFileFinished) {
        this.dir = dir;
        this.origin = origin;
        this.newPendingNumber = newPendingNumber;
        this.releasePendingNumber = releasePendingNumber;
        this.logs = logs;
        this.minBlobSize = minBlobSize;
        this.relocate = relocate;
        this.codec = codec;
        this.zstdLevel = zstdLevel;
        this.provisional = provisional;
        this.recompressProvisional = recompressProvisional && provisional != null && codec != provisional;
        this.fileSize = fileSize;
        this.onFileFinished = onFileFinished;
    }

    /** The entry to write for a kept entry: unchanged, separated, or relocated. */
    public Entry keep(byte[] internalKey, byte[] value) throws IOException {
        int type = InternalKey.typeCodeOf(internalKey);
        if (type == ValueType.VALUE.code() && value.length >= minBlobSize) {
            ValuePointer p = write(InternalKey.userKeyOf(internalKey), value);
            separatedBytes += value.length;
            return new Entry(InternalKey.withType(internalKey, ValueType.VALUE_POINTER), p.encode());
        }
        if (type == ValueType.VALUE_POINTER.code()) {
            ValuePointer old = pointer(internalKey, value);
            if (relocate.contains(old.file())) {
                byte[] userKey = InternalKey.userKeyOf(internalKey);
                // Copied as stored: the value's checksum and key were verified by the read, and
                // compressing it again would only cost CPU (it keeps the codec it was written with),
                // unless it is a provisional record and the engine now has the time.
                ValueLogReader.StoredValue stored = logs.readStored(old, userKey);
                ValuePointer moved;
                if (recompressProvisional && stored.codec() == provisional) {
                    moved = write(userKey, decompressed(stored, old));
                    recompressedBytes += old.length();
                } else {
                    moved = writer().addStored(userKey, stored.codec(), stored.stored());
                }
                garbage.merge(old.file(), (long) old.length(), Long::sum);
                relocatedBytes += old.length();
                relocatedIntoCurrent += old.length();
                return new Entry(internalKey, moved.encode());
            }
        }
        return new Entry(internalKey, value);
    }

    /** Accounts for an entry the job drops. */
    public void dropped(byte[] internalKey, byte[] value) {
        if (InternalKey.typeCodeOf(internalKey) == ValueType.VALUE_POINTER.code()) {
            ValuePointer p = pointer(internalKey, value);
            garbage.merge(p.file(), (long) p.length(), Long::sum);
        }
    }

    private byte[] decompressed(ValueLogReader.StoredValue stored, ValuePointer at) {
        try {
            return stored.value();
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(at.file().path(logs.directory()), at.offset(),
                    "value-log record malformed: " + e.getMessage());
        }
    }

    private static ValuePointer pointer(byte[] internalKey, byte[] value) {
        try {
            return ValuePointer.decode(value);
        } catch (ByteReader.MalformedException e) {
            throw new CorruptionException(Path.of("<table entry " + InternalKey.describe(internalKey) + ">"), 0,
                    "value pointer malformed: " + e.getMessage());
        }
    }

    private ValuePointer write(byte[] userKey, byte[] value) throws IOException {
        return writer().add(userKey, value, codec, zstdLevel);
    }

    /** The value log being written, a new one when there is none or the current one is full. */
    private ValueLogWriter writer() throws IOException {
        if (writer != null && writer.size() >= fileSize) {
            finishCurrent();
        }
        if (writer == null) {
            long number = newPendingNumber.getAsLong();
            pendingNumbers.add(number);
            writer = ValueLogWriter.create(dir, new ValueLogId(origin, number), provisional);
        }
        return writer;
    }

    private void finishCurrent() throws IOException {
        ValueLogFileMetadata m = writer.finish();
        bytesWritten += m.fileSize();
        finished.add(m);
        writer = null;
        long relocatedHere = relocatedIntoCurrent;
        relocatedIntoCurrent = 0;
        onFileFinished.accept(m, relocatedHere);
    }

    /** Finishes (fsyncs) the last value log; returns every file this job wrote. */
    public List<ValueLogFileMetadata> finish() throws IOException {
        if (writer != null) {
            finishCurrent();
        }
        return List.copyOf(finished);
    }

    /** Deletes what the job wrote; for a failed job. */
    public void abandon() throws IOException {
        if (writer != null) {
            writer.abandon();
            writer = null;
        }
        for (ValueLogFileMetadata m : finished) {
            java.nio.file.Files.deleteIfExists(m.id().path(dir));
        }
        pendingNumbers.forEach(releasePendingNumber::accept);
        pendingNumbers.clear();
    }

    /** Garbage bytes this job adds, per file. */
    public Map<ValueLogId, Long> garbage() {
        return Map.copyOf(garbage);
    }

    /** Bytes of value-log files written (separation and relocation). */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Value bytes moved out of tables by this job. */
    public long separatedBytes() {
        return separatedBytes;
    }

    /** Record bytes relocated for garbage collection. */
    public long relocatedBytes() {
        return relocatedBytes;
    }

    /** Bytes of the provisional records among those relocated that were recompressed. */
    public long recompressedBytes() {
        return recompressedBytes;
    }
}
