package dev.strata.engine.util;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Operations on directories that the engine's durability promises rest on. */
public final class Directories {
    private Directories() {
    }

    /**
     * Makes renames, creations and deletions in {@code dir} durable: on Linux a new name is only
     * on disk once its directory has been fsynced.
     */
    public static void sync(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
