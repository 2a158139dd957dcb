package dev.strata.engine;

import java.nio.file.Path;

/**
 * Stored bytes failed a checksum or a format check. The message names the file and the byte
 * offset where the bad data starts, so an operator can find it with a hex dump.
 */
public final class CorruptionException extends EngineException {
    private final Path file;
    private final long offset;

    public CorruptionException(Path file, long offset, String what) {
        super(Code.CORRUPTION, what + " in " + file + " at offset " + offset);
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
