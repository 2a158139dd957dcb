package dev.strata.engine;

/**
 * The one error type the engine throws; {@link #code()} says what kind of failure it is.
 * Unchecked: storage failures are not something a caller can recover from line by line.
 */
public class EngineException extends RuntimeException {
    /** What went wrong, for callers that map errors (the server maps them to gRPC status). */
    public enum Code {
        /** Stored data failed a checksum or could not be decoded. See {@link CorruptionException}. */
        CORRUPTION,
        /** The operating system refused a read, write, fsync or rename. */
        IO_ERROR,
        /** The device is out of space; nothing acknowledged was lost, writes resume when space returns on reopen. */
        NO_SPACE,
        /** The engine is closed. */
        CLOSED,
        /** The caller passed something the engine cannot accept (a null key, a bad option). */
        INVALID_ARGUMENT,
        /** The data directory is locked by another engine. */
        LOCKED
    }

    private final Code code;

    public EngineException(Code code, String message) {
        super(message);
        this.code = code;
    }

    public EngineException(Code code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /**
     * Wraps an I/O failure; a full device gets {@link Code#NO_SPACE} so callers (the server's
     * status mapping, an operator reading the log) can tell it from other I/O errors.
     */
    public static EngineException io(String context, java.io.IOException cause) {
        String m = String.valueOf(cause.getMessage());
        boolean noSpace = m.contains("No space left on device") || m.contains("Disk quota exceeded");
        return new EngineException(noSpace ? Code.NO_SPACE : Code.IO_ERROR, context + ": " + cause, cause);
    }

    public Code code() {
        return code;
    }

    @Override
    public String getMessage() {
        return code + ": " + super.getMessage();
    }
}
