package dev.strata.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SteadyThroughputTest {

    @Test
    void aRisingThroughputIsNotYetWarm() {
        SteadyThroughput steady = new SteadyThroughput(0.10, 2);
        // A warm-up measured on this machine, 20 s windows of puts: still rising every other pass.
        for (double ops : new double[] {835, 1444, 1734, 2448, 2667, 3285}) {
            assertThat(steady.record(ops)).as("after %s ops/s", ops).isFalse();
        }
        assertThat(steady.best()).isEqualTo(3285);
    }

    @Test
    void warmAfterTwoPassesInARowWithoutATenPercentGainOverTheBest() {
        SteadyThroughput steady = new SteadyThroughput(0.10, 2);
        assertThat(steady.record(1000)).isFalse();
        assertThat(steady.record(2000)).isFalse();
        assertThat(steady.record(2150)).isFalse(); // 7.5% over the best: one pass without gain
        assertThat(steady.record(1900)).isTrue(); // below the best: the second in a row
    }

    @Test
    void aGainAfterAPlateauStartsTheCountAgain() {
        SteadyThroughput steady = new SteadyThroughput(0.10, 2);
        steady.record(1000);
        assertThat(steady.record(1050)).isFalse();
        assertThat(steady.record(1200)).isFalse(); // 14% over the best so far (1050)
        assertThat(steady.record(1250)).isFalse();
        assertThat(steady.record(1300)).isTrue(); // 4% over the best, 1250: the second in a row
    }

    @Test
    void aSystemThatHasNeverAnsweredIsNotWarm() {
        SteadyThroughput steady = new SteadyThroughput(0.10, 1);
        assertThat(steady.record(0)).isFalse();
        assertThat(steady.record(0)).isFalse();
        assertThat(steady.best()).isZero();
        assertThat(steady.record(500)).isFalse();
        assertThat(steady.record(0)).isTrue(); // answered before: a pass without gain
    }

    @Test
    void geometricMeanWeighsEveryWorkloadAlike() {
        assertThat(SteadyThroughput.geometricMean(100, 10_000)).isCloseTo(1000, within(1e-9));
        assertThat(SteadyThroughput.geometricMean(500, 0, 20)).isZero();
        assertThatThrownBy(SteadyThroughput::geometricMean).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SteadyThroughput(-0.1, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
