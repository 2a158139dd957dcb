package dev.strata.bench;

import dev.strata.testkit.FileTrees;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Set;

/**
 * The directory a benchmark's database lives in: one the user named, which is used as it is and
 * kept, or a fresh temporary one, deleted on {@link #close()} unless asked to keep it.
 */
final class DbDirectory implements AutoCloseable {
    private final Path path;
    private final boolean deleteOnClose;

    private DbDirectory(Path path, boolean deleteOnClose) {
        this.path = path;
        this.deleteOnClose = deleteOnClose;
    }

    /**
     * @param given the directory the user named, or null for a fresh temporary one
     * @param keep  keep a temporary directory after the run
     */
    static DbDirectory create(Path given, boolean keep) throws IOException {
        if (given != null) {
            return new DbDirectory(Files.createDirectories(given), false);
        }
        return new DbDirectory(Files.createTempDirectory("strata-bench-"), !keep);
    }

    Path path() {
        return path;
    }

    /**
     * The real size of every file under {@code dir}, whatever engine wrote them: the one measure
     * of disk use that trusts no engine's accounting. A file with several names (hard links, as
     * checkpoints make) counts once; a file deleted during the walk counts as gone.
     */
    static long sizeOf(Path dir) {
        long[] total = {0};
        Set<Object> seen = new HashSet<>();
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    Object inode = attributes.fileKey();
                    if (inode == null || seen.add(inode)) {
                        total[0] += attributes.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot measure " + dir, e);
        }
        return total[0];
    }

    boolean deleteOnClose() {
        return deleteOnClose;
    }

    @Override
    public void close() {
        if (!deleteOnClose) {
            return;
        }
        try {
            FileTrees.delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
