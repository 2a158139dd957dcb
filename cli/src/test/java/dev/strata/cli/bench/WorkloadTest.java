package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.strata.cli.bench.OpType.INSERT;
import static dev.strata.cli.bench.OpType.READ;
import static dev.strata.cli.bench.OpType.READ_MODIFY_WRITE;
import static dev.strata.cli.bench.OpType.SCAN;
import static dev.strata.cli.bench.OpType.UPDATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class WorkloadTest {
    private static final int DRAWS = 100_000;

    /** Each operation's share of {@value #DRAWS} draws. */
    private static Map<OpType, Double> drawn(OperationMix mix) {
        SplittableRandom random = new SplittableRandom(17);
        Map<OpType, Double> shares = new EnumMap<>(OpType.class);
        for (int i = 0; i < DRAWS; i++) {
            shares.merge(mix.next(random), 1.0 / DRAWS, Double::sum);
        }
        return shares;
    }

    private static void assertMix(Workload w, Map<OpType, Double> expected) {
        Map<OpType, Double> drawn = drawn(w.mix(0.8));
        assertThat(drawn.keySet()).as("workload %s", w).isEqualTo(expected.keySet());
        expected.forEach((op, share) -> assertThat(drawn.get(op)).as("%s of workload %s", op, w)
                .isCloseTo(share, within(0.01)));
    }

    @Test
    void ycsbWorkloadsRunYcsbsMixes() {
        assertMix(Workload.a, Map.of(READ, 0.5, UPDATE, 0.5));
        assertMix(Workload.b, Map.of(READ, 0.95, UPDATE, 0.05));
        assertMix(Workload.c, Map.of(READ, 1.0));
        assertMix(Workload.d, Map.of(READ, 0.95, INSERT, 0.05));
        assertMix(Workload.e, Map.of(SCAN, 0.95, INSERT, 0.05));
        assertMix(Workload.f, Map.of(READ, 0.5, READ_MODIFY_WRITE, 0.5));
    }

    @Test
    void logkvReadsAtItsReadFraction() {
        assertMix(Workload.logkv, Map.of(READ, 0.8, UPDATE, 0.2));
        assertThat(drawn(Workload.logkv.mix(1.0))).containsOnlyKeys(READ);
        assertThat(drawn(Workload.logkv.mix(0.0))).containsOnlyKeys(UPDATE);
    }

    @Test
    void ycsbDistributionsAreTheDefaults() {
        assertThat(Workload.a.defaultDistribution()).isEqualTo(Distribution.zipfian);
        assertThat(Workload.d.defaultDistribution()).isEqualTo(Distribution.latest);
        assertThat(Workload.e.defaultDistribution()).isEqualTo(Distribution.zipfian);
        assertThat(Workload.logkv.defaultDistribution()).isEqualTo(Distribution.hotspot);
    }

    @Test
    void aMixThatDoesNotSumToOneIsRefused() {
        assertThatThrownBy(() -> OperationMix.of(Map.of(READ, 0.5, UPDATE, 0.4)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sum to 1");
        assertThatThrownBy(() -> OperationMix.of(Map.of(READ, 1.5, UPDATE, -0.5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }
}
