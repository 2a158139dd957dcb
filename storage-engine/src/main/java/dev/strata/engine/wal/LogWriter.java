package dev.strata.engine.wal;


import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends records to a log file in {@link LogFormat}. Each {@link #addRecord} issues one
 * write system call, so a record is in the operating system's cache when it returns (it
 * survives a process crash); {@link #sync} makes it survive a machine crash.
 * Not thread-safe: the engine's write leader (or the manifest's owner) is the only caller.
 */
public final class LogWriter implements Closeable {
    private final Path path;
    private final FileChannel channel;
    /** Direct, so the record is copied once on its way to the kernel (a heap buffer is copied into a direct one by NIO). */
    private ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
    private long offset;

    private LogWriter(Path path, FileChannel channel, long offset) {
        this.path = path;
        this.channel = channel;
        this.offset = offset;
    }

    /** Creates a new, empty log file; fails if it exists. */
    public static LogWriter create(Path path) throws IOException {
        FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new LogWriter(path, ch, 0);
    }

    public Path path() {
        return path;
    }

    /** Bytes in the file so far. */
    public long size() {
        return offset;
    }

    public void addRecord(byte[] data) throws IOException {
        addRecord(data, 0, data.length);
    }

    public void addRecord(byte[] data, int off, int len) throws IOException {
        int fragments = len / (LogFormat.BLOCK_SIZE - LogFormat.HEADER_SIZE) + 2;
        ensureCapacity(len + fragments * (LogFormat.HEADER_SIZE + LogFormat.HEADER_SIZE));
        buffer.clear();
        long pos = offset;
        boolean first = true;
        int left = len;
        do {
            int leftInBlock = LogFormat.BLOCK_SIZE - (int) (pos % LogFormat.BLOCK_SIZE);
            if (leftInBlock < LogFormat.HEADER_SIZE) {
                // Too small for a header: pad with zeros, the reader skips to the next block.
                for (int i = 0; i < leftInBlock; i++) {
                    buffer.put((byte) 0);
                }
                pos += leftInBlock;
                leftInBlock = LogFormat.BLOCK_SIZE;
            }
            int fragment = Math.min(left, leftInBlock - LogFormat.HEADER_SIZE);
            boolean last = fragment == left;
            int type = first ? (last ? LogFormat.FULL : LogFormat.FIRST) : (last ? LogFormat.LAST : LogFormat.MIDDLE);
            buffer.putInt(Integer.reverseBytes(LogFormat.crc(type, data, off, fragment))); // little-endian on disk
            buffer.put((byte) fragment).put((byte) (fragment >>> 8)).put((byte) type);
            buffer.put(data, off, fragment);
            pos += LogFormat.HEADER_SIZE + fragment;
            off += fragment;
            left -= fragment;
            first = false;
        } while (left > 0);
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        offset = pos;
        if (buffer.capacity() > 4 * 1024 * 1024) {
            buffer = ByteBuffer.allocateDirect(64 * 1024); // one huge record should not pin its buffer
        }
    }

    private void ensureCapacity(int bytes) {
        if (buffer.capacity() < bytes) {
            buffer = ByteBuffer.allocateDirect(Math.max(bytes, buffer.capacity() * 2));
        }
    }

    /** Forces everything written so far to stable storage. */
    public void sync() throws IOException {
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
