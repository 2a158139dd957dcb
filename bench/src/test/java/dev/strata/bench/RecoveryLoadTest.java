package dev.strata.bench;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class RecoveryLoadTest {
    @Test
    void keyNumbersRoundTrip() {
        for (int k : new int[] {0, 7, 123_456, Integer.MAX_VALUE}) {
            assertThat(RecoveryLoad.keyNumber(RecoveryLoad.key(k))).isEqualTo(k);
        }
        assertThat(new String(RecoveryLoad.key(42), StandardCharsets.US_ASCII)).isEqualTo("r/0000000000000042");
    }

    @Test
    void otherKeysHaveNoNumber() {
        for (String key : new String[] {"probe", "r/", "r/00000000000000x1", "x/0000000000000001", "r/99999999999999999"}) {
            assertThat(RecoveryLoad.keyNumber(key.getBytes(StandardCharsets.US_ASCII))).as(key).isEqualTo(-1);
        }
        assertThat(RecoveryLoad.keyNumber("r/9999999999999999".getBytes(StandardCharsets.US_ASCII))).isEqualTo(-1);
    }

    @Test
    void valuesAreDeterministicDistinctAndSized() {
        SeqValues a = new SeqValues(1, 128);
        assertThat(a.of(5)).hasSize(128).isEqualTo(new SeqValues(1, 128).of(5)).isNotEqualTo(a.of(6));
        assertThat(new String(a.of(5), 0, 2, StandardCharsets.US_ASCII)).isEqualTo("5/");
        assertThat(a.of(Long.MAX_VALUE)).hasSize(128);
    }
}
