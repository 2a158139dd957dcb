package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ZipfianGeneratorTest {
    private static final int DRAWS = 200_000;

    private static double exactZeta(long n) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += Math.pow(i, -ZipfianGenerator.THETA);
        }
        return sum;
    }

    @Test
    void drawsStayInRange() {
        for (long items : new long[] {1, 2, 3, 10, 1000, ScrambledZipfian.RANKS}) {
            ZipfianGenerator z = new ZipfianGenerator(items, new SplittableRandom(1));
            for (int i = 0; i < 10_000; i++) {
                assertThat(z.next()).as("items %d", items).isBetween(0L, items - 1);
            }
        }
    }

    @Test
    void theTwoMostPopularRanksAreDrawnAsOftenAsTheoryPredicts() {
        int items = 1000;
        ZipfianGenerator z = new ZipfianGenerator(items, new SplittableRandom(7));
        long[] counts = new long[items];
        for (int i = 0; i < DRAWS; i++) {
            counts[(int) z.next()]++;
        }
        double zeta = exactZeta(items);
        // P(rank i) = (i + 1)^-θ / ζ(n): about 12.9% and 6.5%; a 5% relative tolerance is over 15 standard deviations.
        assertThat(counts[0] / (double) DRAWS).isCloseTo(1 / zeta, within(0.05 / zeta));
        double second = Math.pow(2, -ZipfianGenerator.THETA) / zeta;
        assertThat(counts[1] / (double) DRAWS).isCloseTo(second, within(0.05 * second));
        assertThat(counts[0]).isGreaterThan(counts[1]).isGreaterThan(counts[2]);
    }

    @Test
    void zetaAgreesWithTheExactSumPastTheExactTerms() {
        for (long n : new long[] {1, 2, 999, 1000, 1001, 54_321, 1_000_000}) {
            double exact = exactZeta(n);
            assertThat(ZipfianGenerator.zeta(n)).as("n %d", n).isCloseTo(exact, within(exact * 1e-10));
        }
    }

    @Test
    void zetaOfTenBillionMatchesTheConstantYcsbHardCodes() {
        assertThat(ZipfianGenerator.zeta(10_000_000_000L)).isCloseTo(26.46902820178302, within(1e-8));
    }

    @Test
    void resizingMakesTheNewItemsReachable() {
        ZipfianGenerator z = new ZipfianGenerator(10, new SplittableRandom(3));
        z.resize(1_000_000);
        long max = 0;
        for (int i = 0; i < 10_000; i++) {
            max = Math.max(max, z.next());
        }
        assertThat(max).isGreaterThan(10).isLessThan(1_000_000);
    }
}
