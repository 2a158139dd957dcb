package dev.strata.transfer;

import com.google.protobuf.UnsafeByteOperations;
import dev.strata.engine.compress.Codec;
import dev.strata.proto.internal.v1.Chunk;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The chunk encoding of checkpoint files: each chunk is zstd-compressed on its own when that
 * saves at least an eighth of it (tables' blocks are mostly compressed already, and a second
 * pass over them only costs CPU, as Ozone found), sent raw otherwise, with the CRC32C of its
 * raw bytes so the receiver checks what it writes, not only what travelled. Whether a large
 * chunk saves an eighth is judged from a {@link #PROBE} of it first.
 */
public final class Chunks {
    /** Raw bytes per chunk: large enough for zstd to find matches, small enough to re-fetch cheaply. */
    public static final int SIZE = 1 << 20;
    /** Chunks on their way at once: the sender's queue and the receiver's flow-control window each hold this many. */
    public static final int IN_FLIGHT = 4;
    /** Fast: shipping must keep up with a disk copy; the gain over level 3 on table data is small. */
    private static final int ZSTD_LEVEL = 1;

    private Chunks() {}

    /**
     * Bytes of a chunk compressed first, from its middle, to tell whether the whole chunk is worth
     * compressing (OpenZFS's early abort does the same for zstd): checkpoint files are mostly
     * compressed blocks and values already, and compressing all of them for nothing cost about a
     * third of a full transfer's time (see docs/benchmarks.md).
     */
    static final int PROBE = 64 << 10;

    /**
     * The chunk of file {@code file} holding {@code raw[0, length)}, which starts at {@code offset}.
     * An uncompressed chunk wraps {@code raw} without copying it: the caller must not reuse it.
     */
    public static Chunk encode(int file, long offset, byte[] raw, int length) {
        byte[] compressed = worthCompressing(raw, length) ? Codec.ZSTD.compress(raw, 0, length, ZSTD_LEVEL) : null;
        Chunk.Builder b = Chunk.newBuilder().setFile(file).setOffset(offset).setRawLength(length).setCrc32C(crc(raw, length));
        if (compressed != null) {
            b.setCodec(Chunk.Codec.ZSTD).setData(UnsafeByteOperations.unsafeWrap(compressed));
        } else {
            b.setCodec(Chunk.Codec.NONE).setData(UnsafeByteOperations.unsafeWrap(raw, 0, length));
        }
        return b.build();
    }

    /** False when a probe from the middle of a large chunk does not save an eighth (Codec's threshold) either. */
    private static boolean worthCompressing(byte[] raw, int length) {
        if (length < 4 * PROBE) {
            return true; // small enough to just try
        }
        return Codec.ZSTD.compress(raw, (length - PROBE) / 2, PROBE, ZSTD_LEVEL) != null;
    }

    /**
     * The raw bytes of a chunk, checked against its length and CRC, as a read-only buffer (an
     * uncompressed chunk's bytes are not copied).
     *
     * @throws CorruptChunkException when they do not decode or do not match
     */
    public static ByteBuffer decode(Chunk c) {
        ByteBuffer raw;
        switch (c.getCodec()) {
            case NONE -> raw = c.getData().asReadOnlyByteBuffer();
            case ZSTD -> {
                byte[] data = c.getData().toByteArray();
                try {
                    raw = ByteBuffer.wrap(Codec.ZSTD.decompress(data, 0, data.length)).asReadOnlyBuffer();
                } catch (IllegalArgumentException e) {
                    throw new CorruptChunkException(c, e.getMessage());
                }
            }
            default -> throw new CorruptChunkException(c, "unknown codec " + c.getCodecValue());
        }
        if (raw.remaining() != c.getRawLength()) {
            throw new CorruptChunkException(c, raw.remaining() + " bytes, the chunk says " + c.getRawLength());
        }
        CRC32C crc = new CRC32C();
        crc.update(raw.duplicate());
        if ((int) crc.getValue() != c.getCrc32C()) {
            throw new CorruptChunkException(c, "CRC " + Integer.toHexString((int) crc.getValue()) + ", the chunk says "
                    + Integer.toHexString(c.getCrc32C()));
        }
        return raw;
    }

    private static int crc(byte[] b, int length) {
        CRC32C crc = new CRC32C();
        crc.update(b, 0, length);
        return (int) crc.getValue();
    }

    /** A chunk whose bytes are not what it says they are. */
    static final class CorruptChunkException extends RuntimeException {
        CorruptChunkException(Chunk c, String detail) {
            super("chunk of file " + c.getFile() + " at offset " + c.getOffset() + " is corrupt: " + detail);
        }
    }
}
