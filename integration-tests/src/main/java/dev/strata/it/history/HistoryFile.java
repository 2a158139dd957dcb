package dev.strata.it.history;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A fault-injection run saved as one JSON file, to be checked again later ({@link CheckHistory}).
 * The format is in {@code integration-tests/docs/history-format.md}.
 *
 * <p>Thread-safe; two writers of one file at once are not supported.
 */
public final class HistoryFile {
    private HistoryFile() {}

    /**
     * Writes {@code info} and {@code ops} to {@code file}, atomically replacing whatever was there:
     * a reader sees the old file or the new one, never part of it.
     */
    public static void write(Path file, RunInfo info, List<Operation> ops) throws IOException {
        HistoryWriter.write(file, info, ops);
    }

    /**
     * Reads the run and operations stored in {@code file}.
     *
     * @throws HistoryFormatException if {@code file} is not a history file this version understands;
     *                                the message names the file and the field
     */
    public static RunHistory read(Path file) throws IOException {
        return HistoryReader.read(file);
    }
}
