package dev.strata.bench.cluster;

import java.time.Duration;

/**
 * The timeline of one run, in {@link System#nanoTime()}: operations start from {@code start},
 * the warm-up runs until {@code measureStart}, the measured window until {@code end}, and no
 * operation starts at or after {@code end}. Which operations the window counts is each loop's
 * rule ({@link ClosedLoop}, {@link OpenLoop}).
 */
record Window(long start, long measureStart, long end) {
    Window {
        if (!(start <= measureStart && measureStart <= end)) {
            throw new IllegalArgumentException("need start <= measureStart <= end, were " + start + ", " + measureStart + ", "
                    + end);
        }
    }

    /** A window opening at {@code now}: {@code warmup} unmeasured, then {@code measured}. */
    static Window of(long now, Duration warmup, Duration measured) {
        long measureStart = now + warmup.toNanos();
        return new Window(now, measureStart, measureStart + measured.toNanos());
    }

    /** Whether {@code t} is inside the measured window. */
    boolean measures(long t) {
        return t >= measureStart && t < end;
    }

    /** Nanoseconds from now until {@code grace} after the end (saturating: an end far away never wraps around). */
    long nanosUntilEndPlus(Duration grace) {
        long left = Math.max(0, end - System.nanoTime());
        return left > Long.MAX_VALUE - grace.toNanos() ? Long.MAX_VALUE : left + grace.toNanos();
    }

    /** The measured length in seconds. */
    double measuredSeconds() {
        return (end - measureStart) / 1e9;
    }
}
