package dev.strata.engine.util;

import java.util.zip.CRC32C;

/**
 * CRC32C values as tables and value logs store them: masked, as LevelDB's {@code crc32c::Mask}
 * does. A file's content id is the CRC32C of all its bytes, and the CRC of bytes followed by
 * their own plain CRC is a constant: two value logs whose headers differ only in the file they
 * name (and so in the header CRC) would have the same content id, and a receiver would take one
 * for the other. Rotating and offsetting the stored CRC breaks that identity.
 */
public final class MaskedCrc {
    private static final int MASK_DELTA = 0xa282ead8;

    private MaskedCrc() {}

    /** The masked CRC32C of {@code len} bytes of {@code b} from {@code off}. */
    public static int of(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        return mask((int) crc.getValue());
    }

    /** The masked CRC32C of {@code len} bytes of {@code b} from {@code off}, then {@code last}. */
    public static int of(byte[] b, int off, int len, byte last) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        crc.update(last);
        return mask((int) crc.getValue());
    }

    static int mask(int crc) {
        return Integer.rotateRight(crc, 15) + MASK_DELTA;
    }
}
