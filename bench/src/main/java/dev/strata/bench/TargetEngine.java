package dev.strata.bench;

import dev.strata.engine.EngineOptions;

import java.nio.file.Path;
import java.util.Locale;

/** The engines a benchmark can run on, as {@code --engines} names them. */
enum TargetEngine {
    /** Strata's own engine. */
    STRATA,
    /** RocksDB through its Java binding, configured to mirror Strata's options ({@link RocksDbOptions}). */
    ROCKSDB;

    /**
     * Opens this engine in {@code dir} (a fresh directory) with Strata's resolved {@code options};
     * {@code blobCompression} applies to RocksDB only.
     */
    BenchTarget open(Path dir, EngineOptions options, RocksDbOptions.BlobCompression blobCompression) {
        return switch (this) {
            case STRATA -> StrataTarget.open(dir, options);
            case ROCKSDB -> RocksDbTarget.open(dir, options, blobCompression);
        };
    }

    /**
     * Checks that this engine can be given {@code options}, before any run starts.
     *
     * @throws IllegalArgumentException naming what it cannot take
     */
    void check(EngineOptions options, RocksDbOptions.BlobCompression blobCompression) {
        if (this == ROCKSDB) {
            RocksDbOptions.mirroring(options, blobCompression).close();
        }
    }

    /** The name as given on the command line and printed in reports. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
