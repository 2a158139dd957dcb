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
 * Leader-lease reads ({@code strata.raft.read.leader-lease=true}) under the faults that threaten
 * them: a leader frozen (SIGSTOP) past the election timeout while the others elect a new one
 * and write, then thawed with its old lease; a leader cut off by a partition; a leadership
 * transfer; slow links that delay the heartbeats a lease is renewed by. A leader that served a
 * read from an expired lease would return a value the new leader had already overwritten, and
 * the linearizability check would fail the run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeaderLeaseFaultInjectionIT {
    private static final long SEED = 0x1EA5E_0001L;
    private final Path histories = Path.of("target", "torture-histories", "leader-lease");
    private ProcessCluster cluster;

    @BeforeAll
    void start() throws Exception {
        Files.createDirectories(histories);
        cluster = ProcessCluster.start(Files.createTempDirectory("strata-torture-lease-"), 3,
                Map.of("strata.raft.read.leader-lease", "true"));
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pause-leader", "partition-leader", "leader-transfer", "pause-leader+slow-links"})
    void leaseReadsStayLinearizableUnderThisFault(String nemesis) throws Exception {
        List<String> parts = List.of(nemesis.split("\\+"));
        long seed = SEED + nemesis.hashCode();
        RunResult result = new TortureRun(cluster, Nemeses.compose(parts.stream().map(Nemeses::named).toList()), seed,
                TortureRun.Settings.forTests(), histories.resolve(nemesis + ".json")).run();

        assertThat(result.faultsInjected()).as("faults injected").isPositive();
        assertThat(result.ok()).as("operations that succeeded").isPositive();
        assertThat(result.passed()).as(result.explanation()).isTrue();
    }
}
