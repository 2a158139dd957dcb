package dev.strata.cli.bench;

import dev.strata.client.Consistency;
import dev.strata.client.OutcomeUnknownException;
import dev.strata.client.StrataException;
import io.grpc.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** What {@code strata bench --target etcd} sends to etcd, checked against {@link FakeEtcd}. */
class EtcdTargetTest {
    private final FakeEtcd etcd = new FakeEtcd();
    private final EtcdTarget target = new EtcdTarget(List.of(etcd.endpoint()), Duration.ofSeconds(10));

    EtcdTargetTest() throws Exception {}

    @AfterEach
    void close() throws InterruptedException {
        target.close();
        etcd.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static BenchSettings settings(Workload w, long keys, Consistency consistency, long ops) {
        return new BenchSettings(w, w.defaultDistribution(), keys, 200, 0.5, 4, null, null, ops, Duration.ZERO, consistency,
                0.8, 1.0, 0.2, 0.6, 10, "bench/", 7, true);
    }

    @Test
    void getsPutsAndScansAreEtcdRanges() {
        target.put(b("k1"), b("v1"));
        target.put(b("k2"), b("v2"));
        target.put(b("k3"), b("v3"));
        assertThat(target.get(b("k1"), Consistency.LINEARIZABLE)).isTrue();
        assertThat(target.get(b("k9"), Consistency.SERIALIZABLE)).isFalse();
        target.scan(b("k1"), b("k3"), 5, Consistency.LINEARIZABLE);

        assertThat(etcd.puts.get()).isEqualTo(3);
        var ranges = List.copyOf(etcd.ranges);
        assertThat(ranges.get(0).getSerializable()).as("a linearizable get is etcd's default range").isFalse();
        assertThat(ranges.get(1).getSerializable()).isTrue();
        assertThat(ranges.get(2).getRangeEnd().toStringUtf8()).isEqualTo("k3");
        assertThat(ranges.get(2).getLimit()).isEqualTo(5);
    }

    @Test
    void theLoadWritesEveryKeyInTransactionsEtcdAccepts() throws Exception {
        BenchSettings s = settings(Workload.e, 1000, Consistency.SERIALIZABLE, 300);
        Benchmark bench = new Benchmark(target, s, new PrintWriter(new StringWriter()), false);
        BenchReport.Load load = bench.load();
        assertThat(load.keys()).isEqualTo(1000);
        assertThat(etcd.size()).isEqualTo(1000);
        assertThat(etcd.txnSizes).as("no transaction over etcd's default --max-txn-ops").allMatch(n -> n <= 128)
                .hasSizeGreaterThanOrEqualTo(1000 / 128);
        long loadedRevision = etcd.revision.get();

        long self = ProcessHandle.current().pid(); // the stand-in serves from this process
        BenchReport report = bench.run(load, List.of(self));
        assertThat(report.target()).isEqualTo("etcd");
        assertThat(report.serverCpu().pids()).containsExactly(self);
        assertThat(report.serverCpu().seconds()).as("serving 300 calls takes CPU").isPositive();
        assertThat(report.serverCpu().microsPerOp()).isEqualTo(report.serverCpu().seconds() * 1e6 / 300, within(1e-6));
        assertThat(report.ok()).isEqualTo(300);
        assertThat(report.failed()).isZero();
        assertThat(etcd.compactions).as("the load's history is compacted before the run").hasSize(1)
                .allMatch(c -> c.getRevision() == loadedRevision && c.getPhysical());
        assertThat(etcd.ranges).as("workload e's scans are serializable ranges with an end").isNotEmpty()
                .allMatch(r -> r.getSerializable() && !r.getRangeEnd().isEmpty() && r.getLimit() >= 1 && r.getLimit() <= 10);
    }

    @Test
    void failuresCarryTheStatusCode() throws Exception {
        etcd.failPuts = Status.UNAVAILABLE;
        assertThatThrownBy(() -> target.put(b("k"), b("v"))).as("the connection may have carried it")
                .isInstanceOf(OutcomeUnknownException.class)
                .extracting(e -> ((StrataException) e).code()).isEqualTo(StrataException.Code.UNAVAILABLE);
        etcd.failPuts = Status.RESOURCE_EXHAUSTED.withDescription("etcdserver: mvcc: database space exceeded");
        assertThatThrownBy(() -> target.putAll(List.of(b("k")), List.of(b("v"))))
                .isNotInstanceOf(OutcomeUnknownException.class).hasMessageContaining("database space exceeded")
                .extracting(e -> ((StrataException) e).code()).isEqualTo(StrataException.Code.RESOURCE_EXHAUSTED);

        BenchReport report = new Benchmark(target, settings(Workload.a, 100, Consistency.LINEARIZABLE, 200),
                new PrintWriter(new StringWriter()), false).run(null, List.of());
        assertThat(report.serverCpu()).isNull();
        BenchReport.OpStats update = report.operations().stream().filter(o -> o.op().equals("update")).findFirst()
                .orElseThrow();
        assertThat(update.ok()).isZero();
        assertThat(update.failed()).isPositive().isEqualTo(update.failures().get("RESOURCE_EXHAUSTED"));
        assertThat(report.ok() + report.failed()).isEqualTo(200);
    }

    @Test
    void aWarmUpIsCompactedAwayToo() throws Exception {
        BenchSettings s = new BenchSettings(Workload.a, Distribution.uniform, 100, 100, 0.5, 2, null, null, 200L,
                Duration.ofMillis(300), Consistency.LINEARIZABLE, 0.8, 1.0, 0.2, 0.6, 10, "bench/", 7, true);
        Benchmark bench = new Benchmark(target, s, new PrintWriter(new StringWriter()), false);
        bench.load();
        bench.run(null, List.of());
        assertThat(etcd.compactions).as("after the load, and after the warm-up's updates").hasSize(2);
        target.settle();
        target.settle(); // nothing written since: etcd refuses the same revision, which is no failure
        assertThat(etcd.compactions).hasSize(3);
    }

    @Test
    void requestsGoRoundRobinAndAnyLiveMemberAnswersTheProbe() throws Exception {
        try (FakeEtcd second = new FakeEtcd();
             EtcdTarget both = new EtcdTarget(List.of(etcd.endpoint(), second.endpoint()), Duration.ofSeconds(10))) {
            for (int i = 0; i < 10; i++) {
                both.put(b("k" + i), b("v"));
            }
            assertThat(etcd.puts.get()).isEqualTo(5);
            assertThat(second.puts.get()).isEqualTo(5);
            etcd.close();
            both.checkReachable(); // the first is down, the second answers
        }
    }

    @Test
    void aWriteThatOutlivesItsDeadlineHasAnUnknownOutcomeAReadJustFails() throws Exception {
        etcd.silent = true;
        try (EtcdTarget impatient = new EtcdTarget(List.of(etcd.endpoint()), Duration.ofMillis(100))) {
            assertThatThrownBy(() -> impatient.put(b("k"), b("v"))).isInstanceOf(OutcomeUnknownException.class)
                    .extracting(e -> ((StrataException) e).code()).isEqualTo(StrataException.Code.DEADLINE_EXCEEDED);
            assertThatThrownBy(() -> impatient.get(b("k"), Consistency.LINEARIZABLE))
                    .as("a read that times out is just a failure").isNotInstanceOf(OutcomeUnknownException.class);
        }
    }

    @Test
    void aDownClusterIsUnreachable() throws Exception {
        String endpoint = etcd.endpoint();
        etcd.close();
        try (EtcdTarget down = new EtcdTarget(List.of(endpoint), Duration.ofSeconds(2))) {
            assertThatThrownBy(down::checkReachable).isInstanceOf(StrataException.class)
                    .hasMessageContaining("etcd at " + endpoint);
        }
    }
}
