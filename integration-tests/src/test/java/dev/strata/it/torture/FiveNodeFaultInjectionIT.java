package dev.strata.it.torture;

import dev.strata.it.nemesis.Nemeses;
import dev.strata.testkit.cluster.ProcessCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The faults whose shape depends on the cluster's size, on five nodes: a bridge partition (each
 * half of two nodes sees the bridge only), a minority of two cut off, and two faults at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FiveNodeFaultInjectionIT {
    private static final long SEED = 0x5EED_0005L;
    private final Path histories = Path.of("target", "torture-histories", "five-nodes");
    private ProcessCluster cluster;

    @BeforeAll
    void start() throws Exception {
        Files.createDirectories(histories);
        cluster = ProcessCluster.start(Files.createTempDirectory("strata-torture-5-"), 5, Map.of());
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"partition-bridge", "partition-minority", "kill-leader+slow-links"})
    void aRunUnderThisFaultKeepsEveryGuarantee(String nemesis) throws Exception {
        var parts = List.of(nemesis.split("\\+")).stream().map(Nemeses::named).toList();
        RunResult result = new TortureRun(cluster, Nemeses.compose(parts), SEED + nemesis.hashCode(),
                TortureRun.Settings.forTests(), histories.resolve(nemesis + ".json")).run();

        assertThat(result.faultsInjected()).as("faults injected").isPositive();
        assertThat(result.passed()).as(result.explanation()).isTrue();
        assertThat(result.digests()).hasSize(5);
    }
}
