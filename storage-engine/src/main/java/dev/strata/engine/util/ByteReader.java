package dev.strata.engine.util;

import dev.strata.engine.MalformedDataException;

import java.util.Arrays;

/**
 * A bounds-checked cursor over encoded bytes. Every read that would run past the end, or a
 * varint that does not terminate, throws {@link MalformedException} so decoders of on-disk
 * data never read garbage silently; callers turn it into a corruption error with the file name.
 * Not thread-safe.
 */
public final class ByteReader {
    private final byte[] buf;
    private final int limit;
    private int pos;

    public ByteReader(byte[] buf) {
        this(buf, 0, buf.length);
    }

    public ByteReader(byte[] buf, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > buf.length) {
            throw new IllegalArgumentException("range " + offset + "+" + length + " of " + buf.length);
        }
        this.buf = buf;
        this.pos = offset;
        this.limit = offset + length;
    }

    /** Thrown when encoded bytes are shorter than their own lengths claim. */
    public static final class MalformedException extends MalformedDataException {
        public MalformedException(String message) {
            super(message);
        }
    }

    public int position() {
        return pos;
    }

    public int remaining() {
        return limit - pos;
    }

    public boolean hasRemaining() {
        return pos < limit;
    }

    private void need(int n) {
        if (n < 0 || limit - pos < n) {
            throw new MalformedException("need " + n + " bytes at " + pos + ", have " + (limit - pos));
        }
    }

    public byte get() {
        need(1);
        return buf[pos++];
    }

    public int getInt() {
        need(4);
        int v = Coding.getInt(buf, pos);
        pos += 4;
        return v;
    }

    public long getLong() {
        need(8);
        long v = Coding.getLong(buf, pos);
        pos += 8;
        return v;
    }

    public long getVarint() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            need(1);
            byte b = buf[pos++];
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new MalformedException("varint longer than 10 bytes at " + pos);
    }

    /** A varint that must fit a non-negative int (a length or a count). */
    public int getVarintInt() {
        long v = getVarint();
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new MalformedException("length " + v + " out of range at " + pos);
        }
        return (int) v;
    }

    public byte[] getBytes(int n) {
        need(n);
        byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return out;
    }

    public byte[] getLengthPrefixed() {
        return getBytes(getVarintInt());
    }

    public void skip(int n) {
        need(n);
        pos += n;
    }
}
