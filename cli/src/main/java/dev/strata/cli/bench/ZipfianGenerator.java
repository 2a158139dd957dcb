package dev.strata.cli.bench;

import java.util.SplittableRandom;

/**
 * Draws ranks in {@code [0, items)} with rank {@code i} drawn in proportion to
 * {@code 1 / (i + 1)^θ}, θ = {@value #THETA} (YCSB's zipfian constant); rank 0 is the most
 * popular. It uses the method of Gray et al., "Quickly Generating Billion-Record Synthetic
 * Databases" (SIGMOD 1994), as YCSB's ZipfianGenerator does: ranks 0 and 1 exactly, the rest by a
 * closed-form approximation, in constant time per draw once ζ(items) is known.
 *
 * <p>YCSB sums ζ term by term, which is why it hard-codes ζ(10<sup>10</sup>) for its scrambled
 * zipfian and extends the sum as inserts grow the item count. Here ζ is the exact sum of its first
 * {@value #EXACT_TERMS} terms plus the Euler–Maclaurin estimate of the rest, which agrees with the
 * full sum to about 10<sup>-11</sup> and costs a few {@code pow} calls for any item count, so
 * {@link #resize} is cheap enough to follow every insert.
 *
 * <p>Not thread-safe: one per worker.
 */
final class ZipfianGenerator {
    static final double THETA = 0.99;

    private static final int EXACT_TERMS = 1000;
    private static final double EXACT_SUM = exactZeta(EXACT_TERMS);
    private static final double ALPHA = 1 / (1 - THETA);
    private static final double ZETA_2 = exactZeta(2);

    private final SplittableRandom random;
    private long items;
    private double zetaItems;
    private double eta;

    ZipfianGenerator(long items, SplittableRandom random) {
        this.random = random;
        resize(items);
    }

    long items() {
        return items;
    }

    /** Draws from {@code [0, items)} from now on. REQUIRES: {@code items >= 1}. */
    void resize(long items) {
        if (items < 1) {
            throw new IllegalArgumentException("a zipfian needs at least one item, got " + items);
        }
        this.items = items;
        this.zetaItems = zeta(items);
        this.eta = (1 - Math.pow(2.0 / items, 1 - THETA)) / (1 - ZETA_2 / zetaItems);
    }

    long next() {
        double u = random.nextDouble();
        double uz = u * zetaItems;
        if (uz < 1) {
            return 0;
        }
        if (uz < ZETA_2) {
            return 1;
        }
        // The formula stays below items in exact arithmetic; the min keeps rounding from reaching it.
        return Math.min(items - 1, (long) (items * Math.pow(eta * u - eta + 1, ALPHA)));
    }

    /** ζ(n) = Σ<sub>i=1..n</sub> i<sup>-θ</sup>, the normalising constant of n items. */
    static double zeta(long n) {
        if (n <= EXACT_TERMS) {
            return exactZeta(n);
        }
        // Σ_{i=m+1..n} f(i) ≈ ∫_m^n f + (f(n) - f(m)) / 2 + (f'(n) - f'(m)) / 12 with f(x) = x^-θ;
        // the next term is of order f'''(m) / 720, below 10^-11 at m = 1000.
        double m = EXACT_TERMS;
        double integral = (Math.pow(n, 1 - THETA) - Math.pow(m, 1 - THETA)) / (1 - THETA);
        double ends = (Math.pow(n, -THETA) - Math.pow(m, -THETA)) / 2;
        double slopes = -THETA * (Math.pow(n, -THETA - 1) - Math.pow(m, -THETA - 1)) / 12;
        return EXACT_SUM + integral + ends + slopes;
    }

    private static double exactZeta(long n) {
        double sum = 0;
        for (long i = n; i >= 1; i--) {
            sum += Math.pow(i, -THETA);
        }
        return sum;
    }
}
