package dev.strata.engine.sst;

import dev.strata.engine.util.Coding;
import dev.strata.engine.util.MaskedCrc;


/**
 * Constants of the table (SST) format shared by {@link TableBuilder} and {@link TableReader};
 * the layout is drawn in {@code storage-engine/docs/format/sst.md}.
 *
 * <pre>
 * [data block 1][trailer] ... [data block n][trailer]
 * [filter block][trailer]        bloom filter over user keys (absent: size 0)
 * [properties block][trailer]    counts, sizes, key and sequence range, codecs
 * [index block][trailer]         last key of each data block -> its handle
 * [footer]                       64 bytes, fixed
 *
 * trailer = [codec id u8][crc32c u32 of stored bytes and codec id]
 * footer  = [filter off u64][filter size u64][props off u64][props size u64]
 *           [index off u64][index size u64][format version u32][crc32c u32 of the 52 bytes before]
 *           [magic u64]
 * </pre>
 */
final class TableFormat {
    private TableFormat() {}

    /** "strataST" read as a little-endian u64. */
    static final long MAGIC = 0x5453617461727473L;

    /** Format versions, oldest first. 1: the layout above. */
    static final int VERSION_1 = 1;
    static final int CURRENT_VERSION = VERSION_1;

    static final int BLOCK_TRAILER_SIZE = 1 + 4;
    static final int FOOTER_SIZE = 6 * 8 + 4 + 4 + 8;

    static int blockCrc(byte[] stored, int off, int len, byte codecId) {
        return MaskedCrc.of(stored, off, len, codecId);
    }

    /** The parsed footer. */
    record Footer(BlockHandle filter, BlockHandle properties, BlockHandle index, int version) {
        byte[] encode() {
            byte[] out = new byte[FOOTER_SIZE];
            Coding.putLong(out, 0, filter.offset());
            Coding.putLong(out, 8, filter.size());
            Coding.putLong(out, 16, properties.offset());
            Coding.putLong(out, 24, properties.size());
            Coding.putLong(out, 32, index.offset());
            Coding.putLong(out, 40, index.size());
            Coding.putInt(out, 48, version);
            Coding.putInt(out, 52, MaskedCrc.of(out, 0, 52));
            Coding.putLong(out, 56, MAGIC);
            return out;
        }

        /** Decodes a footer; returns null with the reason in {@code why[0]} when it is not valid. */
        static Footer decode(byte[] b, String[] why) {
            if (Coding.getLong(b, 56) != MAGIC) {
                why[0] = "bad table magic number (not a Strata table, or truncated)";
                return null;
            }
            if (MaskedCrc.of(b, 0, 52) != Coding.getInt(b, 52)) {
                why[0] = "footer checksum mismatch";
                return null;
            }
            int version = Coding.getInt(b, 48);
            if (version < VERSION_1 || version > CURRENT_VERSION) {
                why[0] = "unsupported table format version " + version;
                return null;
            }
            return new Footer(new BlockHandle(Coding.getLong(b, 0), Coding.getLong(b, 8)),
                    new BlockHandle(Coding.getLong(b, 16), Coding.getLong(b, 24)),
                    new BlockHandle(Coding.getLong(b, 32), Coding.getLong(b, 40)), version);
        }
    }
}
