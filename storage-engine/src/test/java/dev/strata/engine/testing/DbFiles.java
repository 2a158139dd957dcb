package dev.strata.engine.testing;

import dev.strata.engine.version.FileNames;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The files of a database directory, by kind, and damage to them, for recovery and corruption tests. */
public final class DbFiles {
    private DbFiles() {}

    /** The files of {@code kind} in {@code dir}, in name order (oldest number first). */
    public static List<Path> ofKind(Path dir, FileNames.Kind kind) throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> {
                FileNames.Parsed f = FileNames.parse(p.getFileName().toString());
                return f != null && f.kind() == kind;
            }).sorted().toList();
        }
    }

    /** Flips one bit of the byte at {@code offset}, as a bad sector or a torn page would damage it. */
    public static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x20);
        }
    }
}
