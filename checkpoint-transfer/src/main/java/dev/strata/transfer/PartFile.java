package dev.strata.transfer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * An unfinished staged file open for appending, with the CRC32C of everything in it so far, so
 * that finishing it checks the whole file against its content id without reading it back.
 * Resuming a prefix left by an earlier attempt reads that prefix once to start the CRC.
 */
final class PartFile implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final CRC32C crc = new CRC32C();
    private long size;

    private PartFile(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** Opens {@code path} to append at {@code offset}; what lies beyond it (a half-written chunk) is cut off. */
    static PartFile openAt(Path path, long offset) throws IOException {
        FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        PartFile part = new PartFile(path, ch);
        try {
            if (ch.size() < offset) {
                throw new IOException(path + " holds " + ch.size() + " bytes, the sender resumes at " + offset);
            }
            ch.truncate(offset);
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            while (part.size < offset) {
                buf.clear().limit((int) Math.min(buf.capacity(), offset - part.size));
                int n = ch.read(buf, part.size);
                if (n < 0) {
                    throw new IOException(path + " ended at " + part.size + " while reading its prefix of " + offset);
                }
                part.crc.update(buf.flip());
                part.size += n;
            }
            ch.position(offset);
            return part;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    /** Appends all of {@code bytes}. */
    void append(ByteBuffer bytes) throws IOException {
        crc.update(bytes.duplicate());
        while (bytes.hasRemaining()) {
            size += channel.write(bytes);
        }
    }

    long size() {
        return size;
    }

    /** CRC32C of everything appended and resumed. */
    int crc32c() {
        return (int) crc.getValue();
    }

    Path path() {
        return path;
    }

    /** Makes what was appended durable. */
    void force() throws IOException {
        channel.force(true);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
