package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ScrambledZipfianTest {
    private static final int KEYS = 10_000;
    private static final int DRAWS = 200_000;

    private static long[] counts(long seed) {
        ScrambledZipfian z = new ScrambledZipfian(KEYS, new SplittableRandom(seed));
        long[] counts = new long[KEYS];
        for (int i = 0; i < DRAWS; i++) {
            long k = z.next();
            assertThat(k).isBetween(0L, KEYS - 1L);
            counts[(int) k]++;
        }
        return counts;
    }

    @Test
    void theHottestKeyGetsTheShareOfRankZeroOverTenBillionItems() {
        long hottest = Arrays.stream(counts(11)).max().orElseThrow();
        // 1 / ζ(10^10) = 3.78%, plus a little from lower ranks that hash onto the same key.
        assertThat(hottest / (double) DRAWS).isCloseTo(1 / 26.469, within(0.004));
    }

    @Test
    void hotKeysAreScatteredOverTheKeySpace() {
        long[] counts = counts(12);
        int[] hottest = IntStream.range(0, KEYS).boxed()
                .sorted(Comparator.comparingLong((Integer k) -> counts[k]).reversed())
                .limit(10).mapToInt(Integer::intValue).toArray();
        // Unscrambled, the ten hottest would be keys 0..9.
        assertThat(Arrays.stream(hottest).filter(k -> k < KEYS / 10).count()).isLessThanOrEqualTo(3);
        assertThat(Arrays.stream(hottest).max().orElseThrow() - Arrays.stream(hottest).min().orElseThrow())
                .isGreaterThan(KEYS / 2);
    }

    @Test
    void fnvIsFnv1aOfTheLittleEndianBytesWithoutTheSignBit() {
        // FNV-1a 64 of eight zero bytes is 0xa8c7f832281a39c5.
        assertThat(ScrambledZipfian.fnv1a(0)).isEqualTo(0x28c7f832281a39c5L);
        assertThat(ScrambledZipfian.fnv1a(-1)).isNotNegative();
    }
}
