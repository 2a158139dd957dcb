package dev.strata.testkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class FileTreesTest {
    @TempDir
    Path dir;

    @Test
    void aTreeGoesWithEverythingInItAndAMissingOneIsFine() throws Exception {
        Path tree = dir.resolve("tree");
        Files.createDirectories(tree.resolve("a/b"));
        Files.writeString(tree.resolve("a/b/file"), "x");
        Files.writeString(tree.resolve("top"), "y");
        Files.createLink(tree.resolve("a/link"), tree.resolve("top"));

        FileTrees.delete(tree);
        assertThat(tree).doesNotExist();
        assertThat(dir).isEmptyDirectory();
        FileTrees.delete(tree);
    }
}
