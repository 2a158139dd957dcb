package dev.strata.bench.cluster;

import dev.strata.cli.bench.LatencySummary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class VersusSummaryTest {
    private static final String PUT = "put 256B c16 leader";

    private static RunResult run(String system, int round, double opsPerSecond, double p50, double p99, Double cpu,
                                 long failed, long timedOut) {
        Map<String, Long> failures = failed == 0 ? Map.of()
                : Map.of(Failures.TIMED_OUT, timedOut, "UNAVAILABLE", failed - timedOut);
        return new RunResult(system, round, PUT, Op.PUT, 256, Placement.LEADER, "closed", 16, null, null,
                List.of("127.0.0.1:1"), 10, (long) (opsPerSecond * 10), opsPerSecond,
                new LatencySummary((long) (opsPerSecond * 10), p50, p50, p50, p99, p99, p99), failed, timedOut, 0, failures,
                cpu, null, 10.0, cpu == null ? null : cpu * 100, cpu == null ? null : cpu * 10);
    }

    @Test
    void mediansPerSystemAndMedianOfPerRoundRatios() {
        List<RunResult> runs = List.of(
                run("strata", 1, 100, 1000, 5000, 300.0, 0, 0), run("etcd", 1, 200, 500, 2000, 100.0, 0, 0),
                run("strata", 2, 300, 900, 4000, 200.0, 0, 0), run("etcd", 2, 200, 600, 3000, 100.0, 0, 0),
                run("strata", 3, 250, 800, 6000, 250.0, 0, 0), run("etcd", 3, 500, 700, 1000, 50.0, 0, 0));
        VersusSummary s = VersusSummary.of(runs, List.of(PUT));

        assertThat(s.rounds()).isEqualTo(3);
        VersusSummary.Row row = s.rows().getFirst();
        assertThat(row.strata().opsPerSecond()).isEqualTo(250);
        assertThat(row.etcd().opsPerSecond()).isEqualTo(200);
        assertThat(row.strata().opsPerSecondPerRound()).containsExactly(100.0, 300.0, 250.0);
        // Per round: 0.5, 1.5, 0.5; the median ratio is 0.5, not the ratio of the medians (1.25).
        assertThat(row.strataOverEtcd().throughputPerRound()).containsExactly(0.5, 1.5, 0.5);
        assertThat(row.strataOverEtcd().throughput()).isEqualTo(0.5);
        assertThat(row.strataOverEtcd().p50()).isCloseTo(1.5, within(1e-9)); // 2.0, 1.5, 1.142...
        assertThat(row.strataOverEtcd().serverCpuPerOp()).isEqualTo(3.0); // 3, 2, 5
        assertThat(row.strataOverEtcd().serverWrittenBytesPerOp()).isEqualTo(3.0);
        assertThat(row.strata().serverWrittenBytesPerOp()).isEqualTo(25_000.0);
        assertThat(row.strataOverEtcd().deviceWrittenBytesPerOp()).isEqualTo(3.0);
        assertThat(row.etcd().deviceWrittenBytesPerOp()).isEqualTo(1_000.0);
    }

    @Test
    void failuresAreSummedOverTheRounds() {
        List<RunResult> runs = List.of(
                run("strata", 1, 100, 1000, 5000, 300.0, 4, 1), run("etcd", 1, 200, 500, 2000, 100.0, 0, 0),
                run("strata", 2, 100, 1000, 5000, 300.0, 6, 6), run("etcd", 2, 200, 500, 2000, 100.0, 2, 0));
        VersusSummary.Row row = VersusSummary.of(runs, List.of(PUT)).rows().getFirst();
        assertThat(row.strata().failed()).isEqualTo(10);
        assertThat(row.strata().timedOut()).isEqualTo(7);
        assertThat(row.etcd().failed()).isEqualTo(2);
    }

    @Test
    void aRoundWithoutEtcdThroughputHasNoRatio() {
        List<RunResult> runs = List.of(
                run("strata", 1, 100, 1000, 5000, null, 0, 0), run("etcd", 1, 0, 0, 0, null, 9, 9));
        VersusSummary.Ratios r = VersusSummary.of(runs, List.of(PUT)).rows().getFirst().strataOverEtcd();
        assertThat(r.throughput()).isNull();
        assertThat(r.p50()).as("no successful etcd operation: no latency to compare").isNull();
        assertThat(r.serverCpuPerOp()).isNull();
        assertThat(r.serverWrittenBytesPerOp()).isNull();
        assertThat(r.deviceWrittenBytesPerOp()).isNull();
    }

    @Test
    void theWarmupPassIsLeftOut() {
        List<RunResult> runs = List.of(run("strata", 0, 1, 1, 1, null, 50, 0), run("etcd", 0, 1, 1, 1, null, 0, 0),
                run("strata", 1, 100, 1000, 5000, null, 0, 0), run("etcd", 1, 200, 500, 2000, null, 0, 0));
        VersusSummary.Row row = VersusSummary.of(runs, List.of(PUT)).rows().getFirst();
        assertThat(row.strata().rounds()).isEqualTo(1);
        assertThat(row.strata().failed()).isZero();
        assertThat(row.strataOverEtcd().throughput()).isEqualTo(0.5);
    }
}
