package dev.strata.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.client.Consistency;
import dev.strata.client.StrataException;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReportTest {
    private static BenchReport report() {
        BenchSettings s = new BenchSettings(Workload.a, Distribution.zipfian, 1000, 100, 0.5, 4, null, Duration.ofSeconds(10), null,
                Duration.ZERO, Consistency.LINEARIZABLE, 0.8, 1.0, 0.2, 0.6, 100, "bench/", 42, true);
        Meter m = new Meter();
        for (int i = 1; i <= 100; i++) {
            m.succeeded(OpType.READ, i * 10_000L, i % 10 != 0);
        }
        m.failed(OpType.UPDATE, StrataException.Code.UNAVAILABLE);
        return BenchReport.of("2025-01-01T00:00:00Z", s, "etcd", List.of("127.0.0.1:2379"), new BenchReport.Load(1000, 2, 500),
                new PhaseStats.Result(m.harvest(), 10), ServerCpu.of(List.of(11L, 12L), 150_000_000L, 100));
    }

    @Test
    void jsonHoldsTheSettingsAndEachOperationsFigures() throws Exception {
        StringWriter out = new StringWriter();
        JsonReport.write(out, report());
        JsonNode json = new ObjectMapper().readTree(out.toString());

        assertThat(json.at("/settings/workload").asText()).isEqualTo("a");
        assertThat(json.at("/target").asText()).isEqualTo("etcd");
        assertThat(json.at("/endpoints/0").asText()).isEqualTo("127.0.0.1:2379");
        assertThat(json.at("/serverCpu/microsPerOp").asDouble()).isEqualTo(1500.0);
        assertThat(json.at("/settings/duration").asText()).isEqualTo("PT10S");
        assertThat(json.at("/settings/ops").isMissingNode()).isTrue();
        assertThat(json.at("/mix/read").asDouble()).isEqualTo(0.5);
        assertThat(json.at("/machine/cores").asInt()).isPositive();
        assertThat(json.at("/ok").asLong()).as("successes only").isEqualTo(100);
        assertThat(json.at("/opsPerSecond").asDouble()).isEqualTo(10.0);
        assertThat(json.at("/failed").asLong()).isEqualTo(1);
        JsonNode read = json.at("/operations/0");
        assertThat(read.at("/op").asText()).isEqualTo("read");
        assertThat(read.at("/notFound").asLong()).isEqualTo(10);
        assertThat(read.at("/latencyMicros/p50").asDouble()).isBetween(495.0, 505.0);
        JsonNode update = json.at("/operations/1");
        assertThat(update.at("/failures/UNAVAILABLE").asLong()).isEqualTo(1);
        assertThat(update.at("/opsPerSecond").asDouble()).as("a failure is no throughput").isZero();
        assertThat(update.at("/latencyMicros/count").asLong()).isZero();
    }

    @Test
    void theSummaryHasALinePerOperationAndTheFailures() {
        StringWriter out = new StringWriter();
        SummaryTable.print(report(), new PrintWriter(out));
        String text = out.toString();
        assertThat(text).contains("workload a (zipfian keys, linearizable reads)")
                .contains("endpoints: 127.0.0.1:2379 (etcd)")
                .contains("server CPU: 0.2 s over processes [11, 12], 1,500 us per ok operation")
                .contains("run (closed loop): 10.0 s, 100 ok, 10.0 ops/s, 1 failed")
                .containsPattern("read +100 +0 +10\\.0 +0\\.50")
                .contains("update failures: UNAVAILABLE 1")
                .contains("read: 10 of 100 found no key");
    }
}
