/**
 * Strata's storage engine: an LSM tree with key-value separation, per-level block compression,
 * compaction and incremental checkpoints, usable on its own (docs/embedded-engine.md).
 *
 * <p>Its API is three packages: {@code dev.strata.engine} (the {@link dev.strata.engine.Engine},
 * its options, write batches, snapshots, iterators, statistics and errors, the checkpoints and
 * delta chain it keeps), {@code dev.strata.engine.checkpoint} (manifests, deltas and their files:
 * what a replica or a backup ships and installs) and {@code dev.strata.engine.compress} (the codecs and compression policies the
 * options name). Every other package is the engine's own and may change in any release.
 */
module dev.strata.engine {
    requires org.slf4j;
    requires com.github.luben.zstd_jni;
    requires org.lz4.java;
    requires org.xerial.snappy;
    requires com.github.benmanes.caffeine;

    exports dev.strata.engine;
    exports dev.strata.engine.checkpoint;
    exports dev.strata.engine.compress;
}
