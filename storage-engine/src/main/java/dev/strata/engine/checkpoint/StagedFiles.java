package dev.strata.engine.checkpoint;

import dev.strata.engine.CorruptionException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/** Checks that a received or backed-up file is exactly the file its content id names. */
public final class StagedFiles {
    private StagedFiles() {}

    /**
     * Verifies {@code file} against {@code expected} by reading it whole.
     *
     * @throws CorruptionException when it is missing, of another size, or has another CRC
     */
    public static void verify(Path file, ContentId expected) throws IOException {
        if (!Files.exists(file)) {
            throw new CorruptionException(file, 0, "file expected with content " + expected + " is missing");
        }
        long size = Files.size(file);
        if (size != expected.size()) {
            throw new CorruptionException(file, Math.min(size, expected.size()),
                    "file is " + size + " bytes, its content id says " + expected.size());
        }
        int crc = crcOf(file);
        if (crc != expected.crc()) {
            throw new CorruptionException(file, 0, "file CRC " + Integer.toHexString(crc) + " does not match its content id "
                    + expected);
        }
    }

    /** CRC32C of a whole file. */
    public static int crcOf(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buf = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                crc.update(buf, 0, n);
            }
        }
        return (int) crc.getValue();
    }
}
