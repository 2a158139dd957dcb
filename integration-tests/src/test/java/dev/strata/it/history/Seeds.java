package dev.strata.it.history;

import java.util.Random;

/**
 * Seeds for randomized tests: {@code -Dstrata.seed=N} replays a run, otherwise a fresh seed is
 * drawn. The seed is printed so a failure can always be reproduced.
 */
final class Seeds {
    private Seeds() {}

    static long seed(String testName) {
        String fixed = System.getProperty("strata.seed", "");
        long seed = fixed.isBlank() ? new Random().nextLong() : Long.parseLong(fixed.trim());
        System.out.println(testName + " seed=" + seed + " (replay with -Dstrata.seed=" + seed + ")");
        return seed;
    }
}
