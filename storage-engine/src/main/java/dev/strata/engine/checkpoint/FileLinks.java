package dev.strata.engine.checkpoint;

import dev.strata.engine.util.Directories;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Pins immutable files by hard-linking them into a checkpoint or delta directory: the file's
 * bytes stay on disk, at no cost while the engine still uses them, for as long as the link
 * exists, whatever compaction deletes. A file system without hard links gets a copy instead.
 */
public final class FileLinks {
    private static final Logger LOG = LoggerFactory.getLogger(FileLinks.class);
    private static volatile boolean warnedAboutCopies;

    private FileLinks() {}

    /**
     * Makes the links, renames and deletions made in {@code dir} durable: on Linux a new name is
     * on disk only once its directory has been fsynced.
     */
    public static void syncDirectory(Path dir) throws IOException {
        Directories.sync(dir);
    }

    /** Makes {@code link} another name for {@code target} (or a fsynced copy of it). */
    public static void link(Path target, Path link) throws IOException {
        try {
            Files.createLink(link, target);
        } catch (UnsupportedOperationException | FileSystemException e) {
            if (Files.exists(link) || !Files.exists(target)) {
                throw e;
            }
            if (!warnedAboutCopies) {
                warnedAboutCopies = true;
                LOG.warn("cannot hard-link {} ({}); checkpoints and deltas copy files instead", target, e.toString());
            }
            Files.copy(target, link, StandardCopyOption.COPY_ATTRIBUTES);
            try (FileChannel ch = FileChannel.open(link, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }
    }

    /** How many names the file has: 1 once only a checkpoint or delta keeps it; 0 when it is gone. */
    public static int linkCount(Path p) throws IOException {
        try {
            return (Integer) Files.getAttribute(p, "unix:nlink");
        } catch (NoSuchFileException e) {
            return 0;
        } catch (UnsupportedOperationException e) {
            return 1; // without link counts, every retained file counts as unshared
        }
    }

    /** Deletes a directory and everything in it; a missing directory is fine. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
