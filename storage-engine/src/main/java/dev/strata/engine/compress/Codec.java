package dev.strata.engine.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.Coding;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.xerial.snappy.Snappy;

import java.io.IOException;
import java.util.Arrays;

/**
 * A block compression codec. The id is stored in every block trailer, so ids never change.
 *
 * <p>Compressed form, for every codec but {@link #NONE}:
 * {@code [varint uncompressedLength][codec output]}. Storing the length ourselves lets every
 * codec decompress into an exactly sized array and lets a corrupt length be caught before
 * anything is allocated beyond {@link #MAX_UNCOMPRESSED}.
 *
 * <p>Thread-safe: native contexts are per thread.
 */
public enum Codec {
    NONE(0),
    SNAPPY(1),
    LZ4(2),
    ZSTD(3);

    /** A block or value larger than this is refused on decompression as corrupt. */
    public static final int MAX_UNCOMPRESSED = 256 << 20;

    private static final LZ4Compressor LZ4_COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final LZ4SafeDecompressor LZ4_DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
    private static final ThreadLocal<ZstdCompressCtx> ZSTD_COMPRESS = ThreadLocal.withInitial(ZstdCompressCtx::new);
    private static final ThreadLocal<ZstdDecompressCtx> ZSTD_DECOMPRESS = ThreadLocal.withInitial(ZstdDecompressCtx::new);

    private final byte id;

    Codec(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    /** The codec with this stored id; throws {@link IllegalArgumentException} for an unknown id. */
    public static Codec fromId(int id) {
        for (Codec c : values()) {
            if (c.id == id) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown codec id " + id);
    }

    /**
     * Compresses {@code src[off, off+len)}. Returns null when the result would not save at
     * least one eighth of the input (selective compression: such data is stored raw), and
     * always null for {@link #NONE}.
     *
     * @param zstdLevel used by {@link #ZSTD} only
     */
    public byte[] compress(byte[] src, int off, int len, int zstdLevel) {
        if (this == NONE) {
            return null;
        }
        int budget = len - len / 8;
        int header = Coding.varintLength(len);
        byte[] dst;
        int written;
        try {
            switch (this) {
                case SNAPPY -> {
                    dst = new byte[header + Snappy.maxCompressedLength(len)];
                    written = Snappy.compress(src, off, len, dst, header);
                }
                case LZ4 -> {
                    dst = new byte[header + LZ4_COMPRESSOR.maxCompressedLength(len)];
                    written = LZ4_COMPRESSOR.compress(src, off, len, dst, header, dst.length - header);
                }
                case ZSTD -> {
                    dst = new byte[header + (int) Zstd.compressBound(len)];
                    ZstdCompressCtx ctx = ZSTD_COMPRESS.get();
                    ctx.setLevel(zstdLevel);
                    written = ctx.compressByteArray(dst, header, dst.length - header, src, off, len);
                }
                default -> throw new AssertionError(this);
            }
        } catch (IOException e) {
            throw new IllegalStateException(this + " compression failed", e);
        }
        if (header + written > budget) {
            return null;
        }
        Coding.putVarint(dst, 0, len);
        return Arrays.copyOf(dst, header + written);
    }

    /**
     * Decompresses what {@link #compress} produced.
     *
     * @throws IllegalArgumentException when the input is not valid for this codec (the
     *         caller reports it as corruption with the file and offset)
     */
    public byte[] decompress(byte[] src, int off, int len) {
        if (this == NONE) {
            return Arrays.copyOfRange(src, off, off + len);
        }
        ByteReader header = new ByteReader(src, off, len);
        int rawLength;
        try {
            rawLength = header.getVarintInt();
        } catch (ByteReader.MalformedException e) {
            throw new IllegalArgumentException(this + " header: " + e.getMessage());
        }
        if (rawLength > MAX_UNCOMPRESSED) {
            throw new IllegalArgumentException(this + " claims " + rawLength + " uncompressed bytes");
        }
        int payload = header.position();
        int payloadLength = off + len - payload;
        byte[] dst = new byte[rawLength];
        int produced;
        try {
            produced = switch (this) {
                case SNAPPY -> Snappy.uncompress(src, payload, payloadLength, dst, 0);
                case LZ4 -> LZ4_DECOMPRESSOR.decompress(src, payload, payloadLength, dst, 0, rawLength);
                case ZSTD -> ZSTD_DECOMPRESS.get().decompressByteArray(dst, 0, rawLength, src, payload, payloadLength);
                default -> throw new AssertionError(this);
            };
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(this + " data does not decompress: " + e.getMessage(), e);
        }
        if (produced != rawLength) {
            throw new IllegalArgumentException(this + " produced " + produced + " bytes, header says " + rawLength);
        }
        return dst;
    }
}
