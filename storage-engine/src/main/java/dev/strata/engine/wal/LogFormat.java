package dev.strata.engine.wal;

import java.util.zip.CRC32C;

/**
 * The record log format shared by write-ahead logs and manifests; documented in
 * {@code storage-engine/docs/format/wal.md}. It is LevelDB's: the file is a sequence of
 * 32 KiB blocks; a record is one or more fragments, each
 * {@code [crc32c u32][length u16][type u8][payload]}, the CRC covering type and payload.
 * A fragment never crosses a block boundary; fewer than 7 bytes left in a block are zero
 * padding, so every block begins with a fragment header (which is what lets the reader tell a
 * torn tail from corruption in the middle of the log).
 */
final class LogFormat {
    private LogFormat() {}

    static final int BLOCK_SIZE = 32 * 1024;
    static final int HEADER_SIZE = 4 + 2 + 1;

    static final int FULL = 1;
    static final int FIRST = 2;
    static final int MIDDLE = 3;
    static final int LAST = 4;

    static int crc(int type, byte[] data, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(type);
        crc.update(data, off, len);
        return (int) crc.getValue();
    }
}
