package dev.strata.engine;

import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.memtable.ValueType;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;

/**
 * The payload of one write-ahead log record: one commit group, that is one or more write
 * batches applied together (format in {@code storage-engine/docs/format/wal.md}):
 * <pre>
 * [first sequence u64][entry count u32][varint marker length][marker][entries]
 * entry = [type u8][varint key length][key] and, for a put, [varint value length][value]
 * </pre>
 * Entry i gets sequence {@code first + i}. A record is all-or-nothing on recovery (its CRC
 * covers it whole), which is what makes each batch atomic.
 */
final class WalRecord {
    private WalRecord() {}

    /** A decoded record header; the entries stay encoded until applied. */
    record Header(long firstSequence, int count, byte[] marker, int entriesOffset) {
        long lastSequence() {
            return firstSequence + count - 1;
        }
    }

    static void encodeHeader(ByteSink out, long firstSequence, int count, byte[] marker) {
        out.putLong(firstSequence).putInt(count);
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
        byte[] marker = in.getLengthPrefixed();
        return new Header(first, count, marker.length == 0 ? null : marker, in.position());
    }

    /**
     * Adds the record's entries to {@code mem} with sequences from the header's first.
     *
     * @throws ByteReader.MalformedException when the entries do not match the header
     */
    static void applyTo(MemTable mem, byte[] record, Header h) {
        ByteReader in = new ByteReader(record, h.entriesOffset(), record.length - h.entriesOffset());
        long sequence = h.firstSequence();
        for (int i = 0; i < h.count(); i++) {
            ValueType type = ValueType.fromCode(in.get());
            if (type == null || type == ValueType.VALUE_POINTER) {
                throw new ByteReader.MalformedException("unknown entry type at " + in.position());
            }
            byte[] key = in.getLengthPrefixed();
            byte[] value = type == ValueType.VALUE ? in.getLengthPrefixed() : null;
            mem.add(sequence++, type, key, value);
        }
        if (in.hasRemaining()) {
            throw new ByteReader.MalformedException(in.remaining() + " bytes after " + h.count() + " entries");
        }
        if (h.marker() != null) {
            mem.setAppliedMarker(h.marker());
        }
    }
}
