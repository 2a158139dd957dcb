package dev.strata.cli.bench;

import java.util.SplittableRandom;

/**
 * YCSB's latest distribution: zipfian over recency, rank 0 being the newest key written. The
 * key count follows the inserts as they complete, so a new key becomes the most popular once
 * its insert (and every earlier one) has finished. Not thread-safe: one per worker.
 */
final class LatestChooser implements KeyChooser {
    private final InsertCounter inserts;
    private final ZipfianGenerator recency;

    LatestChooser(InsertCounter inserts, SplittableRandom random) {
        this.inserts = inserts;
        this.recency = new ZipfianGenerator(inserts.written(), random);
    }

    @Override
    public long next() {
        long written = inserts.written();
        if (written != recency.items()) {
            recency.resize(written);
        }
        return written - 1 - recency.next();
    }
}
