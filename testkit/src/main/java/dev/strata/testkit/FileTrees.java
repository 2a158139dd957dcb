package dev.strata.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Directories that tests, the soak and the benchmarks make and throw away. */
public final class FileTrees {
    private FileTrees() {}

    /** Deletes {@code dir} and everything under it, deepest first; a missing directory is fine. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
