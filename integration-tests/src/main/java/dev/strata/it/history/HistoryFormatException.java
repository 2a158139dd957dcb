package dev.strata.it.history;

import java.io.IOException;
import java.nio.file.Path;

/** A history file that is not what {@link HistoryFile} writes: names the file and what was wrong where. */
public final class HistoryFormatException extends IOException {
    HistoryFormatException(Path file, String where, String what) {
        super(file + ": " + (where.isEmpty() ? "" : where + ": ") + what);
    }

    HistoryFormatException(Path file, String what, Throwable cause) {
        super(file + ": " + what, cause);
    }
}
