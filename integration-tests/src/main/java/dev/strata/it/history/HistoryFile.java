package dev.strata.it.history;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** TEMPORARY smoke-test placeholder; replaced by the real one on merge. */
public final class HistoryFile {
    public static void write(Path file, RunInfo info, List<Operation> ops) {
        try {
            Files.writeString(file, info + "\n" + ops.size());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
