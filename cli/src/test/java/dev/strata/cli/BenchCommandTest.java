package dev.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.bench.FakeEtcd;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flags are checked before the command connects: none of these reaches a cluster but the
 * stand-in for etcd.
 */
class BenchCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return new CommandLine(new BenchCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
    }

    @Test
    void aFractionOutsideZeroToOneIsABadUsageNamingTheFlag() {
        assertThat(run("--hit-rate", "1.5")).isEqualTo(2);
        assertThat(err.toString()).contains("--hit-rate must be a fraction in [0, 1], was 1.5").contains("Usage:");
    }

    @Test
    void everyFractionIsChecked() {
        for (String flag : new String[] {"--compressibility", "--read-fraction", "--hit-rate", "--hot-fraction", "--hot-rate"}) {
            assertThat(run(flag, "-0.1")).as(flag).isEqualTo(2);
            assertThat(err.toString()).contains(flag + " must be a fraction");
        }
    }

    @Test
    void countsMustBePositive() {
        assertThat(run("--clients", "0")).isEqualTo(2);
        assertThat(run("--keys", "0")).isEqualTo(2);
        assertThat(run("--ops", "0")).isEqualTo(2);
        assertThat(run("--max-scan-length", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--clients must be at least 1, was 0").contains("--keys must be in [1, ")
                .contains("--ops must be at least 1, was 0").contains("--max-scan-length must be at least 1, was 0");
    }

    @Test
    void durationAndOpsExcludeEachOther() {
        assertThat(run("--duration", "5s", "--ops", "1000")).isEqualTo(2);
        assertThat(err.toString()).contains("either --duration or --ops");
    }

    @Test
    void valueSizesAreByteSizesWithinTheServersLimit() {
        assertThat(run("--value-size", "1x")).isEqualTo(2);
        assertThat(run("--value-size", "32MiB")).isEqualTo(2);
        assertThat(err.toString()).contains("'1x' is not a byte size").contains("--value-size must be in [1, 16777216], was 33554432");
    }

    @Test
    void unknownWorkloadsAndConsistenciesAreBadUsage() {
        assertThat(run("--workload", "g")).isEqualTo(2);
        assertThat(run("--consistency", "eventual")).isEqualTo(2);
        assertThat(err.toString()).contains("--workload").contains("'eventual' is not a consistency");
    }

    @Test
    void etcdIsATargetOverPlaintextOnly() {
        assertThat(run("--target", "zookeeper")).isEqualTo(2);
        assertThat(err.toString()).contains("--target");
        assertThat(run("--target", "etcd", "--tls")).isEqualTo(2);
        assertThat(err.toString()).contains("--target etcd speaks plaintext");
    }

    @Test
    void serverPidsMustBeProcessesHere() {
        assertThat(run("--server-pids", "2147483647")).isEqualTo(2);
        assertThat(err.toString()).contains("--server-pids: cannot read the CPU time of process 2147483647");
    }

    @Test
    void aRunAgainstEtcdLoadsAndReportsIt() throws Exception {
        try (FakeEtcd etcd = new FakeEtcd()) {
            assertThat(run("--target", "etcd", "--endpoints", etcd.endpoint(), "--keys", "300", "--ops", "100",
                    "--clients", "2", "-o", "json")).as(err.toString()).isZero();
            JsonNode json = new ObjectMapper().readTree(out.toString());
            assertThat(json.at("/target").asText()).isEqualTo("etcd");
            assertThat(json.at("/endpoints/0").asText()).isEqualTo(etcd.endpoint());
            assertThat(json.at("/load/keys").asLong()).isEqualTo(300);
            assertThat(json.at("/ok").asLong()).isEqualTo(100);
            assertThat(etcd.size()).isEqualTo(300);
        }
    }

    @Test
    void helpListsTheFlags() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("a (50% read, 50% update)", "--workload", "--distribution", "--[no-]load", "--hit-rate", "--hot-fraction",
                "--endpoints", "serializable", "hotspot", "--target");
    }
}
