package dev.strata.bench.cluster;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatsTest {
    @Test
    void medianOfAnOddCountIsTheMiddleValue() {
        assertThat(Stats.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Stats.median(List.of(5.0))).isEqualTo(5.0);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(Stats.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
    }

    @Test
    void medianOfNothingIsRefused() {
        assertThatThrownBy(() -> Stats.median(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMissingFigureMakesTheMedianMissing() {
        assertThat(Stats.medianOrNull(Arrays.asList(1.0, null, 3.0))).isNull();
        assertThat(Stats.medianOrNull(List.of())).isNull();
    }

    @Test
    void ratioOverZeroOrMissingIsMissing() {
        assertThat(Stats.ratio(3.0, 2.0)).isEqualTo(1.5);
        assertThat(Stats.ratio(3.0, 0.0)).isNull();
        assertThat(Stats.ratio(null, 2.0)).isNull();
        assertThat(Stats.ratio(3.0, null)).isNull();
    }
}
