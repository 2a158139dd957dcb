package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HotspotChooserTest {
    private static final int DRAWS = 100_000;

    /** The fraction of draws below {@code hotKeys}. */
    private static double hotShare(HotspotChooser c, long keys, long hotKeys) {
        long hot = 0;
        for (int i = 0; i < DRAWS; i++) {
            long k = c.next();
            assertThat(k).isBetween(0L, keys - 1);
            if (k < hotKeys) {
                hot++;
            }
        }
        return hot / (double) DRAWS;
    }

    @Test
    void hotKeysTakeTheHotRateOfAccesses() {
        HotspotChooser c = new HotspotChooser(1000, 0.2, 0.6, new SplittableRandom(5));
        assertThat(hotShare(c, 1000, 200)).isCloseTo(0.6, within(0.01));
    }

    @Test
    void withoutHotKeysEveryAccessIsCold() {
        HotspotChooser c = new HotspotChooser(1000, 0, 0.9, new SplittableRandom(5));
        assertThat(hotShare(c, 1000, 100)).isCloseTo(0.1, within(0.01));
    }

    @Test
    void whenEveryKeyIsHotEveryAccessIsHot() {
        HotspotChooser c = new HotspotChooser(1000, 1, 0.1, new SplittableRandom(5));
        assertThat(hotShare(c, 1000, 1000)).isEqualTo(1.0);
    }
}
