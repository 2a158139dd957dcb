package dev.strata.bench;

import dev.strata.testkit.cluster.ClusterLayout;
import dev.strata.testkit.cluster.ProcessCluster;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A copy of a cluster's directory taken right after every node was killed: the nodes' data as
 * the crash left it and the ports they listened on ({@link ProcessCluster#saveLayout()}). Started
 * again from fresh copies, one image gives any number of restarts from the same state, so settings
 * and commits that touch the restart can be compared without loading a cluster each time.
 */
final class CrashImage {
    private CrashImage() {}

    /** Saves the directory of {@code cluster}, every node of which must be stopped, to {@code image}. */
    static void save(ProcessCluster cluster, Path clusterDir, Path image) throws IOException {
        if (Files.exists(image)) {
            throw new IOException("crash image " + image + " already exists");
        }
        cluster.saveLayout();
        copyTree(clusterDir, image);
    }

    /**
     * Copies {@code image} to {@code to} (which must not exist) with every file on disk before
     * it returns, so the restart that follows does not share the disk with the copy's write-back.
     * Node logs are left out: a restart starts its own.
     */
    static void restore(Path image, Path to) throws IOException {
        if (!Files.isRegularFile(image.resolve(ClusterLayout.FILE))) {
            throw new IOException(image + " is not a crash image: it has no " + ClusterLayout.FILE);
        }
        if (Files.exists(to)) {
            throw new IOException(to + " already exists");
        }
        copyTree(image, to);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(from)) {
            all = walk.toList();
        }
        for (Path source : all) {
            Path target = to.resolve(from.relativize(source).toString());
            if (Files.isDirectory(source)) {
                Files.createDirectories(target);
            } else if (!isNodeLog(from, source)) {
                Files.copy(source, target);
                try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
                    ch.force(true);
                }
            }
        }
    }

    /** A node's output log ({@code nodeN.log} at the top of a cluster directory). */
    private static boolean isNodeLog(Path root, Path file) {
        return file.getParent().equals(root) && file.getFileName().toString().matches("node\\d+\\.log");
    }
}
