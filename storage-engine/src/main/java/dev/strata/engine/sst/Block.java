package dev.strata.engine.sst;

import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.Coding;

import java.util.Arrays;
import java.util.Comparator;

/**
 * A decoded, immutable block as {@link BlockBuilder} wrote it; thread-safe, each
 * {@link #iterator} is not. Malformed contents raise {@link BlockFormatException}, which the
 * table reader reports as corruption with the file and offset.
 */
final class Block {
    private final byte[] data;
    private final int restartsOffset;
    private final int restartCount;
    private final Comparator<byte[]> comparator;

    /** Thrown when a block's bytes do not parse. */
    static final class BlockFormatException extends RuntimeException {
        BlockFormatException(String message) {
            super(message);
        }
    }

    Block(byte[] data, Comparator<byte[]> comparator) {
        if (data.length < 4) {
            throw new BlockFormatException("block of " + data.length + " bytes");
        }
        int count = Coding.getInt(data, data.length - 4);
        long restartsBytes = 4L * count + 4;
        if (count < 1 || restartsBytes > data.length) {
            throw new BlockFormatException("bad restart count " + count + " for a block of " + data.length + " bytes");
        }
        this.data = data;
        this.restartCount = count;
        this.restartsOffset = (int) (data.length - restartsBytes);
        this.comparator = comparator;
    }

    int size() {
        return data.length;
    }

    private int restart(int i) {
        int off = Coding.getInt(data, restartsOffset + 4 * i);
        if (off < 0 || off >= restartsOffset && !(off == 0 && restartsOffset == 0)) {
            throw new BlockFormatException("restart point " + i + " at " + off + " outside entries");
        }
        return off;
    }

    BlockIterator iterator() {
        return new BlockIterator();
    }

    /** A cursor over the block's entries. */
    final class BlockIterator {
        private int next; // offset of the entry after the current one
        private byte[] key;
        private int valueOffset;
        private int valueLength;
        private boolean valid;

        boolean valid() {
            return valid;
        }

        byte[] key() {
            return key;
        }

        byte[] value() {
            return Arrays.copyOfRange(data, valueOffset, valueOffset + valueLength);
        }

        void seekToFirst() {
            next = restart(0);
            key = null;
            parseNext();
        }

        void next() {
            parseNext();
        }

        /** Positions at the first entry with a key at or after {@code target}. */
        void seek(byte[] target) {
            // Binary search for the last restart point whose key is before the target.
            int lo = 0;
            int hi = restartCount - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (comparator.compare(keyAtRestart(mid), target) < 0) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            next = restart(lo);
            key = null;
            do {
                parseNext();
            } while (valid && comparator.compare(key, target) < 0);
        }

        private byte[] keyAtRestart(int i) {
            ByteReader in = reader(restart(i));
            int shared = in.getVarintInt();
            int unshared = in.getVarintInt();
            in.getVarintInt();
            if (shared != 0) {
                throw new BlockFormatException("restart entry " + i + " shares " + shared + " bytes");
            }
            return in.getBytes(unshared);
        }

        private ByteReader reader(int offset) {
            return new ByteReader(data, offset, restartsOffset - offset);
        }

        private void parseNext() {
            if (next >= restartsOffset) {
                valid = false;
                return;
            }
            try {
                ByteReader in = reader(next);
                int shared = in.getVarintInt();
                int unshared = in.getVarintInt();
                int vlen = in.getVarintInt();
                int prev = key == null ? 0 : key.length;
                if (shared > prev) {
                    throw new BlockFormatException("entry at " + next + " shares " + shared + " bytes of a " + prev + "-byte key");
                }
                byte[] k = new byte[shared + unshared];
                if (shared > 0) {
                    System.arraycopy(key, 0, k, 0, shared);
                }
                int keyStart = in.position();
                in.skip(unshared);
                System.arraycopy(data, keyStart, k, shared, unshared);
                valueOffset = in.position();
                in.skip(vlen);
                valueLength = vlen;
                key = k;
                next = in.position();
                valid = true;
            } catch (ByteReader.MalformedException e) {
                throw new BlockFormatException("entry at " + next + ": " + e.getMessage());
            }
        }
    }
}
