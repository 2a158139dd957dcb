package dev.strata.engine.wal;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.util.ByteSink;
import dev.strata.engine.util.Coding;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the records of a log file written by {@link LogWriter}, verifying every fragment's
 * CRC. It tells two kinds of damage apart:
 * <ul>
 *   <li>a <em>torn tail</em>: the bad bytes are the last thing in the file (a crash in the
 *       middle of an append); reading ends there, {@link #tornTail()} is true and
 *       {@link #validLength()} is where the file should be truncated;</li>
 *   <li><em>corruption</em>: a bad fragment followed later by the start of a valid record.
 *       The records after it were acknowledged, so skipping the damage would lose them
 *       silently; {@link #next()} throws {@link CorruptionException} with the offset.</li>
 * </ul>
 * Not thread-safe.
 */
public final class LogReader implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final long fileSize;
    private long pos;
    private long validLength;
    private boolean tornTail;
    private String tornTailReason;

    private byte[] block;
    private long blockStart = -1;

    public LogReader(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
        this.fileSize = channel.size();
    }

    public Path path() {
        return path;
    }

    /** Bytes from the start of the file through the last complete, valid record read. */
    public long validLength() {
        return validLength;
    }

    /** True when reading stopped at damaged bytes at the end of the file. */
    public boolean tornTail() {
        return tornTail;
    }

    /** Why the tail was judged torn, for the log line. */
    public String tornTailReason() {
        return tornTailReason;
    }

    public long fileSize() {
        return fileSize;
    }

    /**
     * The next record, or null at the end of the log (clean or torn).
     *
     * @throws CorruptionException when a damaged record is followed by valid ones
     */
    public byte[] next() throws IOException {
        if (tornTail) {
            return null;
        }
        ByteSink assembling = null;
        long recordStart = -1;
        while (true) {
            Fragment f = readFragment(pos);
            if (f == null) {
                if (assembling != null) {
                    return stopAtDamage(recordStart, recordStart, "record cut off by the end of the file");
                }
                return null;
            }
            if (f.error != null) {
                long damageAt = assembling != null ? recordStart : f.offset;
                return stopAtDamage(damageAt, f.offset, f.error);
            }
            switch (f.type) {
                case LogFormat.FULL -> {
                    if (assembling != null) {
                        return stopAtDamage(recordStart, f.offset, "FULL fragment inside a record");
                    }
                    pos = f.end();
                    validLength = pos;
                    return f.payload();
                }
                case LogFormat.FIRST -> {
                    if (assembling != null) {
                        return stopAtDamage(recordStart, f.offset, "FIRST fragment inside a record");
                    }
                    assembling = new ByteSink(f.length * 2);
                    recordStart = f.offset;
                    assembling.put(f.data, f.dataOffset, f.length);
                }
                case LogFormat.MIDDLE, LogFormat.LAST -> {
                    if (assembling == null) {
                        return stopAtDamage(f.offset, f.offset, "continuation fragment without a FIRST");
                    }
                    assembling.put(f.data, f.dataOffset, f.length);
                    if (f.type == LogFormat.LAST) {
                        pos = f.end();
                        validLength = pos;
                        return assembling.toByteArray();
                    }
                }
                default -> throw new AssertionError(f.type);
            }
            pos = f.end();
        }
    }

    /** Decides between torn tail and corruption for damage found at {@code fragmentOffset}. */
    private byte[] stopAtDamage(long recordStart, long fragmentOffset, String reason) throws IOException {
        long validAfter = findRecordStartAfter(fragmentOffset);
        if (validAfter >= 0) {
            throw new CorruptionException(path, recordStart,
                    "log record damaged (" + reason + ") with a valid record after it at offset " + validAfter);
        }
        tornTail = true;
        tornTailReason = reason;
        validLength = recordStart;
        return null;
    }

    /**
     * The offset of the first valid FULL or FIRST fragment after {@code damaged}, or -1. Inside
     * the damaged block any offset may start one (the damaged length hides where); later
     * blocks begin with a fragment header, so their fragment chains are followed.
     */
    private long findRecordStartAfter(long damaged) throws IOException {
        long blockEnd = (damaged / LogFormat.BLOCK_SIZE + 1) * LogFormat.BLOCK_SIZE;
        for (long p = damaged + 1; p + LogFormat.HEADER_SIZE <= Math.min(blockEnd, fileSize); p++) {
            Fragment f = readFragment(p);
            if (f != null && f.error == null && (f.type == LogFormat.FULL || f.type == LogFormat.FIRST)) {
                return p;
            }
        }
        for (long start = blockEnd; start < fileSize; start += LogFormat.BLOCK_SIZE) {
            long p = start;
            while (p + LogFormat.HEADER_SIZE <= Math.min(start + LogFormat.BLOCK_SIZE, fileSize)) {
                Fragment f = readFragment(p);
                if (f == null || f.error != null) {
                    break;
                }
                if (f.type == LogFormat.FULL || f.type == LogFormat.FIRST) {
                    return p;
                }
                p = f.end();
            }
        }
        return -1;
    }

    /** The fragment at {@code at} (skipping block padding), null at end of file, or one with an error. */
    private Fragment readFragment(long at) throws IOException {
        long inBlock = at % LogFormat.BLOCK_SIZE;
        if (LogFormat.BLOCK_SIZE - inBlock < LogFormat.HEADER_SIZE) {
            at += LogFormat.BLOCK_SIZE - inBlock; // trailer padding
            inBlock = 0;
        }
        if (at >= fileSize) {
            return null;
        }
        loadBlock(at - inBlock);
        int i = (int) inBlock;
        if (block.length - i < LogFormat.HEADER_SIZE) {
            return Fragment.error(at, "partial fragment header");
        }
        int crc = Coding.getInt(block, i);
        int length = (block[i + 4] & 0xFF) | (block[i + 5] & 0xFF) << 8;
        int type = block[i + 6] & 0xFF;
        if (type == 0 && length == 0 && crc == 0) {
            return Fragment.error(at, "zeroed bytes where a fragment header should be");
        }
        if (type < LogFormat.FULL || type > LogFormat.LAST) {
            return Fragment.error(at, "unknown fragment type " + type);
        }
        if (i + LogFormat.HEADER_SIZE + length > block.length) {
            return Fragment.error(at, "fragment length " + length + " runs past the "
                    + (block.length < LogFormat.BLOCK_SIZE ? "end of the file" : "block"));
        }
        if (LogFormat.crc(type, block, i + LogFormat.HEADER_SIZE, length) != crc) {
            return Fragment.error(at, "fragment checksum mismatch");
        }
        return new Fragment(at, type, block, i + LogFormat.HEADER_SIZE, length, null);
    }

    private void loadBlock(long start) throws IOException {
        if (start == blockStart) {
            return;
        }
        int size = (int) Math.min(LogFormat.BLOCK_SIZE, fileSize - start);
        byte[] b = new byte[size];
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
            if (channel.read(bb, start + bb.position()) < 0) {
                throw new IOException("unexpected end of " + path + " at " + (start + bb.position()));
            }
        }
        block = b;
        blockStart = start;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private record Fragment(long offset, int type, byte[] data, int dataOffset, int length, String error) {
        static Fragment error(long offset, String error) {
            return new Fragment(offset, 0, null, 0, 0, error);
        }

        long end() {
            return offset + LogFormat.HEADER_SIZE + length;
        }

        byte[] payload() {
            byte[] out = new byte[length];
            System.arraycopy(data, dataOffset, out, 0, length);
            return out;
        }
    }
}
