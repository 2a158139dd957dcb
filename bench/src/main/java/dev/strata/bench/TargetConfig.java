package dev.strata.bench;

import dev.strata.engine.WalMode;

/**
 * Engine settings a benchmark asks for, in terms any engine can map to its own options. A null
 * field means "the engine's own default", so defaults stay in the engine.
 *
 * @param walMode           how writes are logged
 * @param writeBufferSize   memtable bytes before a flush
 * @param blockSize         uncompressed data block size
 * @param bloomBitsPerKey   bloom filter bits per key; 0 for none
 * @param targetFileSize    size compaction output files are cut at
 * @param level1MaxBytes    target size of L1
 * @param compactionThreads background compaction threads
 * @param compression       block compression
 */
record TargetConfig(
        WalMode walMode,
        Long writeBufferSize,
        Integer blockSize,
        Integer bloomBitsPerKey,
        Long targetFileSize,
        Long level1MaxBytes,
        Integer compactionThreads,
        Compression compression) {

    /** Block compression: the engine's default policy, or one codec on every level. */
    enum Compression { DEFAULT, NONE, SNAPPY, LZ4, ZSTD }
}
