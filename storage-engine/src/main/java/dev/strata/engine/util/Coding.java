package dev.strata.engine.util;

/**
 * Little-endian fixed-width and LEB128 variable-width integer encodings, as LevelDB's
 * {@code util/coding}. Every on-disk format of the engine is built from these.
 */
public final class Coding {
    private Coding() {}

    /** The most bytes a varint64 takes. */
    public static final int MAX_VARINT64_BYTES = 10;

    public static int varintLength(long value) {
        int n = 1;
        while ((value & ~0x7FL) != 0) {
            value >>>= 7;
            n++;
        }
        return n;
    }

    /** Writes {@code value} as a varint at {@code pos}; returns the position after it. */
    public static int putVarint(byte[] dst, int pos, long value) {
        while ((value & ~0x7FL) != 0) {
            dst[pos++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        dst[pos++] = (byte) value;
        return pos;
    }

    public static void putInt(byte[] dst, int pos, int value) {
        dst[pos] = (byte) value;
        dst[pos + 1] = (byte) (value >>> 8);
        dst[pos + 2] = (byte) (value >>> 16);
        dst[pos + 3] = (byte) (value >>> 24);
    }

    public static void putLong(byte[] dst, int pos, long value) {
        putInt(dst, pos, (int) value);
        putInt(dst, pos + 4, (int) (value >>> 32));
    }

    public static int getInt(byte[] src, int pos) {
        return (src[pos] & 0xFF)
                | (src[pos + 1] & 0xFF) << 8
                | (src[pos + 2] & 0xFF) << 16
                | (src[pos + 3] & 0xFF) << 24;
    }

    public static long getLong(byte[] src, int pos) {
        return (getInt(src, pos) & 0xFFFFFFFFL) | ((long) getInt(src, pos + 4) << 32);
    }
}
