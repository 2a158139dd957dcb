package dev.strata.cli.bench;

import java.util.SplittableRandom;

/**
 * How {@code strata bench} chooses the keys of reads, updates, scans and read-modify-writes
 * (an insert always writes the next new key). The lower-case names are the values of
 * {@code --distribution}. Zipfian, uniform and hotspot choose among the {@code --keys} loaded
 * keys; only latest reaches the keys inserted during the run, as in YCSB.
 */
public enum Distribution {
    /** YCSB's scrambled zipfian (constant 0.99): a few keys are very popular, and they are scattered over the key space. */
    zipfian,
    /** Every key equally likely. */
    uniform,
    /** Zipfian over recency: the newest key (the last loaded, then each insert) is the most popular. */
    latest,
    /**
     * --hot-rate of the accesses go to the first --hot-fraction of the keys, the rest to the
     * others, uniformly within each set (YCSB's hotspot; LogKV's hot keys).
     */
    hotspot;

    /** A chooser for one worker, drawing from that worker's {@code random}. */
    KeyChooser chooser(BenchSettings settings, InsertCounter inserts, SplittableRandom random) {
        return switch (this) {
            case zipfian -> new ScrambledZipfian(settings.keys(), random);
            case uniform -> () -> random.nextLong(settings.keys());
            case latest -> new LatestChooser(inserts, random);
            case hotspot -> new HotspotChooser(settings.keys(), settings.hotFraction(), settings.hotRate(), random);
        };
    }
}
