package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class KeySpaceTest {
    private final KeySpace keys = new KeySpace("bench/");

    @Test
    void keysArePrefixedZeroPaddedNumbers() {
        assertThat(new String(keys.key(42), StandardCharsets.UTF_8)).isEqualTo("bench/0000000000000042");
    }

    @Test
    void byteOrderIsNumberOrder() {
        assertThat(Arrays.compareUnsigned(keys.key(9), keys.key(10))).isNegative();
        assertThat(Arrays.compareUnsigned(keys.key(99_999), keys.key(100_000))).isNegative();
    }

    @Test
    void absentKeysAreNeverKeysOfTheSpace() {
        byte[] absent = keys.absent(7);
        assertThat(absent).isNotEqualTo(keys.key(7));
        assertThat(absent.length).isNotEqualTo(keys.key(7).length);
    }

    @Test
    void theEndIsAfterEveryKeyAndBeforeOtherPrefixes() {
        assertThat(Arrays.compareUnsigned(keys.key(KeySpace.MAX_KEYS - 1), keys.end())).isNegative();
        assertThat(Arrays.compareUnsigned(keys.absent(KeySpace.MAX_KEYS - 1), keys.end())).isNegative();
        assertThat(Arrays.compareUnsigned(keys.end(), "bench0".getBytes(StandardCharsets.UTF_8))).isNegative();
    }
}
