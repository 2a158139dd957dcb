package dev.strata.bench;

import dev.strata.testkit.cluster.ClusterLayout;
import dev.strata.testkit.cluster.ProcessCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrashImageTest {
    @TempDir
    Path tmp;

    private Path image() throws IOException {
        Path image = tmp.resolve("image");
        Files.createDirectories(image.resolve("node1/raft/current"));
        Files.writeString(image.resolve(ClusterLayout.FILE), "node.1=7001,7002,7003\nnode.2=7011,7012,7013\n");
        Files.writeString(image.resolve("node1/raft/current/log_0-9"), "entries");
        Files.writeString(image.resolve("node1.log"), "the first run's output");
        return image;
    }

    @Test
    void aRestoredCopyHoldsTheDataAndLayoutButNotTheNodesOutput() throws IOException {
        Path copy = tmp.resolve("copy");
        CrashImage.restore(image(), copy);

        assertThat(copy.resolve("node1/raft/current/log_0-9")).hasContent("entries");
        assertThat(copy.resolve(ClusterLayout.FILE)).exists();
        assertThat(copy.resolve("node1.log")).doesNotExist();
    }

    @Test
    void aCopyIsAdoptedWithTheImagesPortsAndNothingRunning() throws IOException {
        Path copy = tmp.resolve("copy");
        CrashImage.restore(image(), copy);

        try (ProcessCluster cluster = ProcessCluster.adopt(copy, Map.of(), List.of())) {
            assertThat(cluster.memberIds()).containsExactly(1L, 2L);
            assertThat(cluster.node(2).clientPort()).isEqualTo(7011);
            assertThat(cluster.node(2).raftPort()).isEqualTo(7012);
            assertThat(cluster.node(2).proxyPort()).isEqualTo(7013);
            assertThat(cluster.running(1)).isFalse();
        }
    }

    @Test
    void refusesADirectoryThatIsNoImageAndATargetThatExists() throws IOException {
        Path notAnImage = Files.createDirectories(tmp.resolve("plain"));
        assertThatThrownBy(() -> CrashImage.restore(notAnImage, tmp.resolve("copy")))
                .hasMessageContaining("is not a crash image");
        Path image = image();
        assertThatThrownBy(() -> CrashImage.restore(image, notAnImage)).hasMessageContaining("already exists");
        assertThatThrownBy(() -> ProcessCluster.adopt(notAnImage, Map.of(), List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no cluster layout");
    }

    @Test
    void refusesAMalformedLayout() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("bad"));
        Files.writeString(dir.resolve(ClusterLayout.FILE), "node.1=7001,7002\n");
        assertThatThrownBy(() -> ProcessCluster.adopt(dir, Map.of(), List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed line");
    }
}
