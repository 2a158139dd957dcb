package dev.strata.engine.util;

import java.util.Arrays;

/**
 * A growable byte array that encoders append to (LevelDB appends to a std::string).
 * Not thread-safe.
 */
public final class ByteSink {
    private byte[] buf;
    private int size;

    public ByteSink() {
        this(256);
    }

    public ByteSink(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    public int size() {
        return size;
    }

    /** The backing array; valid bytes are {@code [0, size())}. */
    public byte[] array() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    public void reset() {
        size = 0;
    }

    /** Drops everything after the first {@code newSize} bytes. */
    public void truncate(int newSize) {
        if (newSize < 0 || newSize > size) {
            throw new IllegalArgumentException("truncate to " + newSize + " of " + size);
        }
        size = newSize;
    }

    private void ensure(int extra) {
        int need = size + extra;
        if (need < 0) {
            throw new OutOfMemoryError("ByteSink over 2 GiB");
        }
        if (need > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
        }
    }

    public ByteSink put(byte b) {
        ensure(1);
        buf[size++] = b;
        return this;
    }

    public ByteSink put(byte[] src) {
        return put(src, 0, src.length);
    }

    public ByteSink put(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, buf, size, len);
        size += len;
        return this;
    }

    public ByteSink putInt(int v) {
        ensure(4);
        Coding.putInt(buf, size, v);
        size += 4;
        return this;
    }

    public ByteSink putLong(long v) {
        ensure(8);
        Coding.putLong(buf, size, v);
        size += 8;
        return this;
    }

    public ByteSink putVarint(long v) {
        ensure(Coding.MAX_VARINT64_BYTES);
        size = Coding.putVarint(buf, size, v);
        return this;
    }

    /** A varint length followed by the bytes. */
    public ByteSink putLengthPrefixed(byte[] src) {
        return putLengthPrefixed(src, 0, src.length);
    }

    public ByteSink putLengthPrefixed(byte[] src, int off, int len) {
        putVarint(len);
        return put(src, off, len);
    }
}
