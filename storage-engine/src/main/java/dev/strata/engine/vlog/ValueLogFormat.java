package dev.strata.engine.vlog;

import dev.strata.engine.util.MaskedCrc;

/**
 * Constants of the value-log format shared by {@link ValueLogWriter} and {@link ValueLogReader};
 * documented in {@code storage-engine/docs/format/vlog.md}.
 * <pre>
 * file   := header record*
 * header := magic u64  version u32  origin u64  number u64  crc32c u32     (32 bytes)
 * record := crc32c u32  codec u8  keyLength varint  key  value            (value as stored)
 * </pre>
 * A record's CRC covers everything after it; a pointer's length is the whole record's.
 */
final class ValueLogFormat {
    private ValueLogFormat() {}

    /** "strataVL" read as a little-endian u64. */
    static final long MAGIC = 0x4c56617461727473L;
    static final int VERSION_1 = 1;
    static final int HEADER_SIZE = 8 + 4 + 8 + 8 + 4;
    /** crc + codec: the fixed part of a record. */
    static final int RECORD_PREFIX = 4 + 1;

    static int crc(byte[] b, int off, int len) {
        return MaskedCrc.of(b, off, len);
    }
}
