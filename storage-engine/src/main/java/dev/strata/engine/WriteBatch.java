package dev.strata.engine;

import dev.strata.engine.memtable.ValueType;
import dev.strata.engine.util.ByteSink;

import java.util.Objects;

/**
 * A group of puts and deletes that {@link Engine#write(WriteBatch)} applies atomically: after
 * a crash either all of them are present or none. Later operations on the same key win.
 * Not thread-safe; the engine copies what it needs, so a batch may be reused after
 * {@link #clear()}.
 *
 * <p>A batch may also carry an opaque <em>applied marker</em>: the engine stores it when the
 * memtable holding the batch is flushed, and {@link Engine#appliedMarker()} returns the newest
 * durable one. The Strata server puts the Raft (term, index) there, so on restart it knows
 * which log entries are already in flushed files. A batch with only a marker is allowed.
 */
public final class WriteBatch {
    private final ByteSink entries = new ByteSink(64);
    private int count;
    private long userBytes;
    private byte[] appliedMarker;

    /** Sets {@code key} to {@code value}. */
    public WriteBatch put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        entries.put(ValueType.VALUE.code()).putLengthPrefixed(key).putLengthPrefixed(value);
        count++;
        userBytes += key.length + value.length;
        return this;
    }

    /** Removes {@code key}; deleting an absent key is not an error. */
    public WriteBatch delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        entries.put(ValueType.DELETION.code()).putLengthPrefixed(key);
        count++;
        userBytes += key.length;
        return this;
    }

    /** Attaches an opaque marker (at most 1 KiB) that becomes durable with this batch's memtable; see the class comment. */
    public WriteBatch setAppliedMarker(byte[] marker) {
        Objects.requireNonNull(marker, "marker");
        if (marker.length > 1024) {
            throw new EngineException(EngineException.Code.INVALID_ARGUMENT,
                    "applied marker is " + marker.length + " bytes, the limit is 1024");
        }
        this.appliedMarker = marker.clone();
        return this;
    }

    /** The number of puts and deletes. */
    public int count() {
        return count;
    }

    public boolean isEmpty() {
        return count == 0 && appliedMarker == null;
    }

    /** Encoded size of the operations: roughly the bytes this batch adds to the log. */
    public int approximateSizeInBytes() {
        return entries.size();
    }

    /** Key and value bytes of the operations: what write amplification is measured against. */
    public long userBytes() {
        return userBytes;
    }

    public WriteBatch clear() {
        entries.reset();
        count = 0;
        userBytes = 0;
        appliedMarker = null;
        return this;
    }

    /** The encoded operations, {@code [type][varint klen][key]([varint vlen][value])}; see {@code WalRecord}. */
    ByteSink entries() {
        return entries;
    }

    byte[] appliedMarker() {
        return appliedMarker;
    }
}
