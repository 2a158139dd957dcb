package dev.strata.engine.util;

import dev.strata.engine.CorruptionException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** Positional reads that either return every byte asked for or fail. */
public final class FileReads {
    private FileReads() {}

    /**
     * Reads {@code length} bytes at {@code offset}.
     *
     * @throws CorruptionException when the file ends first: whatever pointed there expected more
     */
    public static byte[] readFully(FileChannel ch, Path path, long offset, int length) throws IOException {
        byte[] b = new byte[length];
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
            if (ch.read(bb, offset + bb.position()) < 0) {
                throw new CorruptionException(path, offset, "read of " + length + " bytes runs past the end of the file");
            }
        }
        return b;
    }
}
