package dev.strata.bench;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.WalMode;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;

/**
 * Engine settings a benchmark asks for. A null field means "Strata's default", so defaults stay
 * in the engine; every target resolves them through {@link #toEngineOptions()}, so an engine
 * measured beside Strata gets the same sizes and shapes.
 *
 * @param walMode           how writes are logged
 * @param writeBufferSize   memtable bytes before a flush
 * @param blockSize         uncompressed data block size
 * @param bloomBitsPerKey   bloom filter bits per key; 0 for none
 * @param targetFileSize    size compaction output files are cut at
 * @param level1MaxBytes    target size of L1
 * @param compactionThreads background compaction threads
 * @param compression       block compression
 * @param valueLogGarbageRatio       garbage fraction at which a value-log file is collected (Strata only;
 *                                   RocksDB keeps its own blob GC defaults)
 * @param valueLogSpaceAmplification value-log space amplification target, 0 for none (Strata only)
 */
record TargetConfig(
        WalMode walMode,
        Long writeBufferSize,
        Integer blockSize,
        Integer bloomBitsPerKey,
        Long targetFileSize,
        Long level1MaxBytes,
        Integer compactionThreads,
        Compression compression,
        Double valueLogGarbageRatio,
        Double valueLogSpaceAmplification) {

    /**
     * Block compression: the engine's default policy, its adaptive policy (LZ4 for value logs while
     * the engine is behind, recompressed with zstd once calm), or one codec on every level.
     */
    enum Compression { DEFAULT, ADAPTIVE, NONE, SNAPPY, LZ4, ZSTD }

    /**
     * Strata's options with these settings applied over its defaults.
     *
     * @throws dev.strata.engine.EngineException with code INVALID_ARGUMENT naming the bad value
     */
    EngineOptions toEngineOptions() {
        EngineOptions.Builder builder = EngineOptions.builder().walMode(walMode);
        if (writeBufferSize != null) {
            builder.writeBufferSize(writeBufferSize);
        }
        if (blockSize != null) {
            builder.blockSize(blockSize);
        }
        if (bloomBitsPerKey != null) {
            builder.bloomBitsPerKey(bloomBitsPerKey);
        }
        if (targetFileSize != null) {
            builder.targetFileSize(targetFileSize);
        }
        if (level1MaxBytes != null) {
            builder.level1MaxBytes(level1MaxBytes);
        }
        if (compactionThreads != null) {
            builder.compactionThreads(compactionThreads);
        }
        if (valueLogGarbageRatio != null) {
            builder.valueLogGarbageRatio(valueLogGarbageRatio);
        }
        if (valueLogSpaceAmplification != null) {
            builder.valueLogSpaceAmplification(valueLogSpaceAmplification);
        }
        if (compression == Compression.ADAPTIVE) {
            builder.compressionPolicy(CompressionPolicy.adaptive());
        } else if (compression != Compression.DEFAULT) {
            builder.compressionPolicy(CompressionPolicy.uniform(Codec.valueOf(compression.name())));
        }
        return builder.build();
    }
}
