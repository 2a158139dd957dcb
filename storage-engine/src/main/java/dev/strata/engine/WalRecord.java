package dev.strata.engine;

import dev.strata.engine.key.ValueType;
import dev.strata.engine.memtable.WriteSink;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The payload of one write-ahead log record: one commit group, that is one or more write
 * batches applied together (format in {@code storage-engine/docs/format/wal.md}):
 * <pre>
 * [first sequence u64][entry count u32][flags u8][varint marker length][marker][entries]
 * entry = [type u8][varint key length][key] and, for a put, [varint value length][value]
 * </pre>
 * Entry i gets sequence {@code first + i}, or {@code first} for all when flag bit 0 (shared
 * sequence: a batch written with a sequence the caller chose) is set. A record is
 * all-or-nothing on recovery (its CRC covers it whole), which is what makes each batch atomic.
 */
final class WalRecord {
    private WalRecord() {}

    private static final int FLAG_SHARED_SEQUENCE = 1;

    /** A decoded record header; the entries stay encoded until applied. */
    record Header(long firstSequence, int count, boolean sharedSequence, byte[] marker, int entriesOffset) {
        /** The highest sequence the record uses; {@code firstSequence - 1} for a marker-only group. */
        long lastSequence() {
            return sharedSequence ? firstSequence : firstSequence + count - 1;
        }
    }

    static void encodeHeader(ByteSink out, long firstSequence, int count, boolean sharedSequence, byte[] marker) {
        out.putLong(firstSequence).putInt(count).put((byte) (sharedSequence ? FLAG_SHARED_SEQUENCE : 0));
        if (marker == null) {
            out.putVarint(0);
        } else {
            out.putLengthPrefixed(marker);
        }
    }

    static void encodeOp(ByteSink out, WriteBatch.Op op) {
        out.put(op.type().code()).putLengthPrefixed(op.key());
        if (op.type() == ValueType.VALUE) {
            out.putLengthPrefixed(op.value());
        }
    }

    /** @throws ByteReader.MalformedException on a bad header */
    static Header decodeHeader(byte[] record) {
        ByteReader in = new ByteReader(record);
        long first = in.getLong();
        int count = in.getInt();
        if (count < 0) {
            throw new ByteReader.MalformedException("negative entry count " + count);
        }
        int flags = in.get() & 0xFF;
        if ((flags & ~FLAG_SHARED_SEQUENCE) != 0) {
            throw new ByteReader.MalformedException("unknown record flags " + flags);
        }
        byte[] marker = in.getLengthPrefixed();
        return new Header(first, count, flags != 0, marker.length == 0 ? null : marker, in.position());
    }

    /**
     * Adds the record's entries to {@code mem}.
     *
     * @throws ByteReader.MalformedException when the entries do not match the header
     */
    static void applyTo(WriteSink mem, byte[] record, Header h) {
        ByteReader in = new ByteReader(record, h.entriesOffset(), record.length - h.entriesOffset());
        List<WriteBatch.Op> ops = new ArrayList<>(h.count());
        for (int i = 0; i < h.count(); i++) {
            ValueType type = ValueType.fromCode(in.get());
            if (type == null || type == ValueType.VALUE_POINTER) {
                throw new ByteReader.MalformedException("unknown entry type at " + in.position());
            }
            byte[] key = in.getLengthPrefixed();
            byte[] value = type == ValueType.VALUE ? in.getLengthPrefixed() : null;
            ops.add(new WriteBatch.Op(type, key, value));
        }
        if (in.hasRemaining()) {
            throw new ByteReader.MalformedException(in.remaining() + " bytes after " + h.count() + " entries");
        }
        insert(mem, ops, h.firstSequence(), h.sharedSequence());
        if (h.marker() != null) {
            mem.setAppliedMarker(h.marker());
        }
    }

    /**
     * Adds operations to a memtable: op i at {@code first + i}, or all at {@code first} when the
     * sequence is shared. Entries with one sequence must have distinct keys (two versions of a
     * key at one sequence would be ambiguous), so with a shared sequence only the last operation
     * on each key is added: later operations in a batch win, as they do otherwise.
     */
    static void insert(WriteSink mem, List<WriteBatch.Op> ops, long first, boolean shared) {
        if (shared) {
            mem.noteSequence(first);
        }
        if (!shared) {
            long sequence = first;
            for (WriteBatch.Op op : ops) {
                mem.add(sequence++, op.type(), op.key(), op.value());
            }
            return;
        }
        Set<ByteBuffer> seen = ops.size() > 1 ? new HashSet<>() : null;
        for (int i = ops.size() - 1; i >= 0; i--) {
            WriteBatch.Op op = ops.get(i);
            if (seen == null || seen.add(ByteBuffer.wrap(op.key()))) {
                mem.add(first, op.type(), op.key(), op.value());
            }
        }
    }
}
