package dev.strata.engine.util;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Buffered sequential writes to a new file, for tables and value logs. {@link #sync()}
 * writes out the buffer and fsyncs. It keeps a CRC32C of every byte written, so a finished
 * file's content id (size, CRC) is known without reading it back. Not thread-safe.
 */
public final class FileWriter implements Closeable {
    private static final int BUFFER_SIZE = 256 * 1024;

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIZE);
    private final CRC32C crc = new CRC32C();
    private long position;

    private FileWriter(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** Creates the file; fails if it exists. */
    public static FileWriter create(Path path) throws IOException {
        return new FileWriter(path, FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    }

    public Path path() {
        return path;
    }

    /** Bytes written so far (buffered included). */
    public long position() {
        return position;
    }

    /** CRC32C of everything written so far. */
    public int crc() {
        return (int) crc.getValue();
    }

    public void write(byte[] src, int off, int len) throws IOException {
        position += len;
        crc.update(src, off, len);
        while (len > 0) {
            if (!buffer.hasRemaining()) {
                drain();
            }
            int n = Math.min(len, buffer.remaining());
            buffer.put(src, off, n);
            off += n;
            len -= n;
        }
    }

    public void write(byte[] src) throws IOException {
        write(src, 0, src.length);
    }

    private void drain() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    /** Writes out buffered bytes and forces the file to stable storage. */
    public void sync() throws IOException {
        drain();
        channel.force(true);
    }

    @Override
    public void close() throws IOException {
        try {
            drain();
        } finally {
            channel.close();
        }
    }
}
