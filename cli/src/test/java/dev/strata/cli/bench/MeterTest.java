package dev.strata.cli.bench;

import dev.strata.client.StrataException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MeterTest {
    @Test
    void aHarvestHoldsWhatWasRecordedSinceTheLastOne() {
        Meter m = new Meter();
        m.succeeded(OpType.READ, 1_000_000, true);
        m.succeeded(OpType.READ, 3_000_000, false);
        m.failed(OpType.UPDATE, StrataException.Code.DEADLINE_EXCEEDED);
        m.failed(OpType.UPDATE, StrataException.Code.UNAVAILABLE);
        m.failed(OpType.UPDATE, StrataException.Code.UNAVAILABLE);

        Tally first = m.harvest();
        assertThat(first.ok(OpType.READ)).isEqualTo(2);
        assertThat(first.notFound(OpType.READ)).isEqualTo(1);
        assertThat(first.latencyNanos(OpType.READ).getTotalCount()).isEqualTo(2);
        assertThat(first.latencyNanos(OpType.READ).getMaxValue()).isBetween(2_990_000L, 3_010_000L);
        assertThat(first.failed(OpType.UPDATE)).isEqualTo(3);
        assertThat(first.failures(OpType.UPDATE)).isEqualTo(Map.of("DEADLINE_EXCEEDED", 1L, "UNAVAILABLE", 2L));
        assertThat(first.ok()).isEqualTo(2);
        assertThat(first.failed()).isEqualTo(3);

        m.succeeded(OpType.SCAN, 500_000, true);
        Tally second = m.harvest();
        assertThat(second.ok()).isEqualTo(1);
        assertThat(second.failed()).isZero();
        assertThat(second.ok(OpType.READ)).isZero();

        first.add(second);
        assertThat(first.ok()).isEqualTo(3);
        assertThat(first.failed()).isEqualTo(3);
        assertThat(first.allLatencyNanos().getTotalCount()).isEqualTo(3);
    }
}
