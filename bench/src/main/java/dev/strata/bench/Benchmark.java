package dev.strata.bench;

import java.util.Locale;

/** The benchmarks {@code strata-bench engine} runs, named and behaving as in db_bench. */
enum Benchmark {
    /** Puts keys 0 .. num-1 in key order. */
    FILLSEQ(true),
    /** Puts num keys drawn uniformly from [0, num), with repeats, so some keys are never written. */
    FILLRANDOM(true),
    /** Puts overwrite-rounds x num keys drawn uniformly from [0, num) over the keys already there. */
    OVERWRITE(true),
    /** Gets reads keys drawn uniformly from [0, num) and counts those found. */
    READRANDOM(false),
    /** Scans the whole database once per thread; one op is one entry. */
    READSEQ(false),
    /** Scans seek-nexts entries from each of reads keys drawn uniformly from [0, num); one op is one seek. */
    SEEKRANDOM(false),
    /**
     * Readrandom while one more thread puts random keys without pause until the reads end, as
     * db_bench's readwhilewriting: the ops are the reads; the writer's puts are counted apart.
     */
    READWHILEWRITING(true),
    /** Flushes the memtable and waits. */
    FLUSH(true, true),
    /** Compacts everything to the bottom level and waits. */
    COMPACT(true, true);

    private final boolean changesStorage;
    private final boolean wholeDatabase;

    Benchmark(boolean changesStorage) {
        this(changesStorage, false);
    }

    Benchmark(boolean changesStorage, boolean wholeDatabase) {
        this.changesStorage = changesStorage;
        this.wholeDatabase = wholeDatabase;
    }

    /** True when the files on disk change, so the engine's storage figures are worth printing after it. */
    boolean changesStorage() {
        return changesStorage;
    }

    /** True for one operation on the whole database, timed once, where rates and percentiles mean nothing. */
    boolean wholeDatabase() {
        return wholeDatabase;
    }

    /** The name as given on the command line and printed in reports. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
