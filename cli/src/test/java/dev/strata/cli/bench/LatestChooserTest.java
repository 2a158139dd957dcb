package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class LatestChooserTest {
    private static final int DRAWS = 100_000;

    @Test
    void theNewestKeysAreTheMostPopular() {
        LatestChooser c = new LatestChooser(new InsertCounter(1000), new SplittableRandom(9));
        long[] counts = new long[1000];
        for (int i = 0; i < DRAWS; i++) {
            counts[(int) c.next()]++;
        }
        assertThat(counts[999]).isGreaterThan(counts[998]).isGreaterThan(counts[990]).isGreaterThan(counts[500]);
        long newestTenth = 0;
        for (int k = 900; k < 1000; k++) {
            newestTenth += counts[k];
        }
        assertThat(newestTenth / (double) DRAWS).isGreaterThan(0.5);
    }

    @Test
    void anInsertedKeyBecomesTheFavouriteOnceEveryEarlierInsertFinished() {
        InsertCounter inserts = new InsertCounter(1000);
        LatestChooser c = new LatestChooser(inserts, new SplittableRandom(9));
        long first = inserts.next();
        long second = inserts.next();
        inserts.finished(second);
        assertThat(maxOf(c)).as("the second insert finished before the first").isEqualTo(999);
        inserts.finished(first);
        long[] counts = new long[1002];
        for (int i = 0; i < DRAWS; i++) {
            counts[(int) c.next()]++;
        }
        assertThat(counts[1001]).isGreaterThan(counts[1000]).isGreaterThan(counts[999]);
    }

    private static long maxOf(LatestChooser c) {
        long max = 0;
        for (int i = 0; i < 10_000; i++) {
            max = Math.max(max, c.next());
        }
        return max;
    }
}
