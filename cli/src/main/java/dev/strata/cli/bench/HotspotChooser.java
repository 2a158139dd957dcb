package dev.strata.cli.bench;

import java.util.SplittableRandom;

/**
 * YCSB's hotspot distribution, which is LogKV's hot keys: the first {@code hotFraction} of the
 * keys are hot and take {@code hotRate} of the accesses; within the hot and the cold set every
 * key is equally likely. With no hot keys every access is cold, with no cold keys every access
 * hot. Not thread-safe: one per worker.
 */
final class HotspotChooser implements KeyChooser {
    private final long hotKeys;
    private final long coldKeys;
    private final double hotRate;
    private final SplittableRandom random;

    HotspotChooser(long keys, double hotFraction, double hotRate, SplittableRandom random) {
        this.hotKeys = (long) (keys * hotFraction);
        this.coldKeys = keys - hotKeys;
        this.hotRate = hotRate;
        this.random = random;
    }

    @Override
    public long next() {
        boolean hot = coldKeys == 0 || (hotKeys > 0 && random.nextDouble() < hotRate);
        return hot ? random.nextLong(hotKeys) : hotKeys + random.nextLong(coldKeys);
    }
}
