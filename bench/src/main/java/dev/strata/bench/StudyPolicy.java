package dev.strata.bench;

import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;

import java.util.Locale;

/** The compression policies {@code strata-bench compression} compares. */
enum StudyPolicy {
    /** No compression anywhere: the baseline for read throughput. */
    NONE(CompressionPolicy.uniform(Codec.NONE)),
    SNAPPY(CompressionPolicy.uniform(Codec.SNAPPY)),
    LZ4(CompressionPolicy.uniform(Codec.LZ4)),
    /** zstd everywhere: the baseline for space saving. */
    ZSTD(CompressionPolicy.uniform(Codec.ZSTD)),
    /** A fixed list by level number, as the seeds' slides had it: none, none, lz4, lz4, zstd, zstd, zstd. */
    FIXED(CompressionPolicy.perLevel(Codec.NONE, Codec.NONE, Codec.LZ4, Codec.LZ4, Codec.ZSTD, Codec.ZSTD, Codec.ZSTD)),
    /** Strata's default, by role: L0 and middle levels LZ4, the bottommost level holding data zstd. */
    DEFAULT(CompressionPolicy.defaults()),
    /**
     * The default as it was until the study measured it, with L0 uncompressed: kept to show what
     * compressing flush output buys where a small database keeps a third of its data in L0.
     */
    L0NONE(CompressionPolicy.byRole(Codec.NONE, Codec.LZ4, Codec.ZSTD));

    private final CompressionPolicy policy;

    StudyPolicy(CompressionPolicy policy) {
        this.policy = policy;
    }

    CompressionPolicy policy() {
        return policy;
    }

    /** The name as given on the command line and printed in reports. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
