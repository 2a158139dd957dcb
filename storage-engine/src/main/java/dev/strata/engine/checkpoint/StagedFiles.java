package dev.strata.engine.checkpoint;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.vlog.ValueLogReader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/** Checks that a received or backed-up file is exactly the file its content id names. */
public final class StagedFiles {
    private StagedFiles() {}

    /**
     * Verifies the file {@code f} of a checkpoint or delta, in {@code dir} under its name,
     * against its content id; a value log must also name itself in its header, since the
     * pointers into it name it and nothing else would notice a well-formed log under another name.
     *
     * @throws CorruptionException when it is missing, differs from its content id, or is a value
     *         log whose header names another file
     */
    public static void verify(Path dir, CheckpointFile f) throws IOException {
        verify(dir.resolve(f.name()), f.content());
        if (f.kind() == CheckpointFile.Kind.VALUE_LOG) {
            ValueLogId id = ValueLogId.parse(f.name());
            if (id == null) {
                throw new CorruptionException(dir.resolve(f.name()), 0, "listed as a value log but not named like one");
            }
            ValueLogReader.open(dir, id).release(); // opening checks the header
        }
    }

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
