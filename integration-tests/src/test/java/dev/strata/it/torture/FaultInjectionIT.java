package dev.strata.it.torture;

import dev.strata.it.nemesis.Nemeses;
import dev.strata.testkit.cluster.ProcessCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every nemesis, one short fixed-seed run each, on a three-node cluster of real processes:
 * traffic through faults, then the history must be linearizable, serializable reads valid, no
 * acknowledged write lost and every node's contents identical. Histories are kept in
 * {@code target/torture-histories/}. The long randomized soak is {@code bin/strata-torture}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FaultInjectionIT {
    private static final long SEED = 0x5EED_0001L;
    private final Path histories = Path.of("target", "torture-histories", "three-nodes");
    private ProcessCluster cluster;

    @BeforeAll
    void start() throws Exception {
        Files.createDirectories(histories);
        cluster = ProcessCluster.start(Files.createTempDirectory("strata-torture-3-"), 3, Map.of());
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static List<String> nemeses() {
        return Nemeses.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nemeses")
    void aRunUnderThisFaultKeepsEveryGuarantee(String nemesis) throws Exception {
        long seed = SEED + Nemeses.names().indexOf(nemesis);
        RunResult result = new TortureRun(cluster, Nemeses.named(nemesis), seed, TortureRun.Settings.forTests(),
                histories.resolve(nemesis + ".json")).run();

        assertThat(result.faultsInjected()).as("faults injected").isPositive();
        assertThat(result.ok()).as("operations that succeeded").isPositive();
        assertThat(result.passed()).as(result.explanation()).isTrue();
        assertThat(result.digests()).hasSameSizeAs(cluster.memberIds());
    }
}
