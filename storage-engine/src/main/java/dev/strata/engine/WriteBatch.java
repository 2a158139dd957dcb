package dev.strata.engine;

import dev.strata.engine.key.ValueType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A group of puts and deletes that {@link Engine#write(WriteBatch)} applies atomically: after
 * a crash either all of them are present or none. Later operations on the same key win.
 * Not thread-safe. The batch copies the keys and values given to it, so callers may reuse their
 * arrays at once; a batch may be reused after {@link #clear()}.
 *
 * <p>A batch may also carry an opaque <em>applied marker</em>: the engine stores it when the
 * memtable holding the batch is flushed, and {@link Engine#appliedMarker()} returns the newest
 * durable one. The Strata server puts the Raft (term, index) there, so on restart it knows
 * which log entries are already in flushed files. A batch with only a marker is allowed.
 */
public final class WriteBatch {
    /**
     * One operation, holding the batch's own copies of key and value: the memtable takes
     * these arrays as they are, so a value is copied once on the way in (and once more into the
     * log), not at every layer.
     */
    record Op(ValueType type, byte[] key, byte[] value) {}

    private final List<Op> ops = new ArrayList<>();
    private int encodedSize;
    private long userBytes;
    private byte[] appliedMarker;

    /** Sets {@code key} to {@code value}. */
    public WriteBatch put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        ops.add(new Op(ValueType.VALUE, key.clone(), value.clone()));
        encodedSize += 1 + 5 + key.length + 5 + value.length;
        userBytes += key.length + value.length;
        return this;
    }

    /** Removes {@code key}; deleting an absent key is not an error. */
    public WriteBatch delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        ops.add(new Op(ValueType.DELETION, key.clone(), null));
        encodedSize += 1 + 5 + key.length;
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
        return ops.size();
    }

    public boolean isEmpty() {
        return ops.isEmpty() && appliedMarker == null;
    }

    /** At most the bytes this batch adds to the log. */
    public int approximateSizeInBytes() {
        return encodedSize;
    }

    /** Key and value bytes of the operations: what write amplification is measured against. */
    public long userBytes() {
        return userBytes;
    }

    public WriteBatch clear() {
        ops.clear();
        encodedSize = 0;
        userBytes = 0;
        appliedMarker = null;
        return this;
    }

    /** The operations in order; the engine hands their arrays to the memtable. */
    List<Op> ops() {
        return ops;
    }

    byte[] appliedMarker() {
        return appliedMarker;
    }
}
