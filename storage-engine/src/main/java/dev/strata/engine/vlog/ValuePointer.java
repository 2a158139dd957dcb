package dev.strata.engine.vlog;

import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;

/**
 * Where a separated value lives: the value-log file, the offset of its record and the record's
 * length, so reading it is one positional read. Stored as the value of a table entry of type
 * {@code VALUE_POINTER}: {@code [origin u64][number varint][offset varint][length varint]}.
 */
public record ValuePointer(ValueLogId file, long offset, int length) {
    public byte[] encode() {
        return new ByteSink(24).putLong(file.origin()).putVarint(file.number()).putVarint(offset).putVarint(length)
                .toByteArray();
    }

    /** @throws ByteReader.MalformedException when the bytes are not a pointer */
    public static ValuePointer decode(byte[] encoded) {
        ByteReader in = new ByteReader(encoded);
        ValuePointer p = new ValuePointer(new ValueLogId(in.getLong(), in.getVarint()), in.getVarint(), in.getVarintInt());
        if (in.hasRemaining()) {
            throw new ByteReader.MalformedException(in.remaining() + " bytes after a value pointer");
        }
        return p;
    }

    @Override
    public String toString() {
        return file + "@" + offset + "+" + length;
    }
}
