package dev.strata.bench;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.compress.CompressionPolicy;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.WriteOptions;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * RocksDB options that mirror a Strata {@link EngineOptions}, so both engines run with the same
 * memory, level shape, blocks, filters, codecs and value separation. Every option this sets is
 * recorded under its RocksDB name (as an OPTIONS file spells it) for the report, RocksDB
 * defaults this relies on included; {@code docs/benchmarks.md} lists the mapping and what has no
 * RocksDB counterpart.
 *
 * <p>Owns native objects: close it after the database that used it. Not thread-safe to build;
 * the finished {@link #writeOptions()} and {@link #readOptions()} may be shared by threads.
 */
final class RocksDbOptions implements AutoCloseable {
    /** RocksDB's default zstd level (ZSTD_CLEVEL_DEFAULT), the level it uses when none is set. */
    private static final int ROCKSDB_DEFAULT_ZSTD_LEVEL = 3;
    /** RocksDB's defaults for its blob GC: relocate blobs of the oldest quarter of blob files; never force. */
    private static final double BLOB_GC_AGE_CUTOFF = 0.25;
    private static final double BLOB_GC_FORCE_THRESHOLD = 1.0;

    private final Map<String, Object> recorded = new LinkedHashMap<>();
    private final Options options = new Options();
    private final BlockBasedTableConfig table = new BlockBasedTableConfig();
    private final WriteOptions writeOptions = new WriteOptions();
    private final ReadOptions readOptions = new ReadOptions();
    private LRUCache blockCache;
    private BloomFilter bloomFilter;

    /** What RocksDB's blob files are compressed with. */
    enum BlobCompression {
        /** The codec Strata gives its value logs (the policy's long-lived codec): equal compression. */
        FOLLOW,
        /** None, RocksDB's own default ({@code blob_compression_type=kNoCompression}). */
        NONE
    }

    private final BlobCompression blobCompression;

    private RocksDbOptions(BlobCompression blobCompression) {
        this.blobCompression = blobCompression;
    }

    /**
     * The RocksDB counterpart of {@code strata}.
     *
     * @throws IllegalArgumentException when an option has no RocksDB counterpart (a fixed
     *         per-level codec list that differs below L1, a zstd level other than 3, a separate
     *         value-log directory)
     */
    static RocksDbOptions mirroring(EngineOptions strata, BlobCompression blobCompression) {
        RocksDbOptions mirror = new RocksDbOptions(blobCompression);
        try {
            mirror.apply(strata);
            return mirror;
        } catch (RuntimeException e) {
            mirror.close();
            throw e;
        }
    }

    Options options() {
        return options;
    }

    WriteOptions writeOptions() {
        return writeOptions;
    }

    ReadOptions readOptions() {
        return readOptions;
    }

    /** Every option set, by RocksDB name, in the order set. */
    Map<String, Object> recorded() {
        return Collections.unmodifiableMap(recorded);
    }

    private void apply(EngineOptions s) {
        set("create_if_missing", true, options::setCreateIfMissing);

        // Memtables: Strata keeps one active and up to maxImmutableMemtables frozen ones.
        set("write_buffer_size", s.writeBufferSize(), options::setWriteBufferSize);
        set("max_write_buffer_number", s.maxImmutableMemtables() + 1, options::setMaxWriteBufferNumber);

        // Level shape. Dynamic level sizing is RocksDB's default and what its users run: data
        // goes from L0 to the deepest level, which RocksDB treats as the bottommost.
        set("num_levels", s.numLevels(), options::setNumLevels);
        set("level_compaction_dynamic_level_bytes", true, options::setLevelCompactionDynamicLevelBytes);
        set("max_bytes_for_level_base", s.level1MaxBytes(), options::setMaxBytesForLevelBase);
        set("max_bytes_for_level_multiplier", (double) s.levelSizeMultiplier(), options::setMaxBytesForLevelMultiplier);
        set("target_file_size_base", s.targetFileSize(), options::setTargetFileSizeBase);
        set("target_file_size_multiplier", 1, options::setTargetFileSizeMultiplier);
        set("level0_file_num_compaction_trigger", s.level0CompactionTrigger(), options::setLevel0FileNumCompactionTrigger);
        set("level0_slowdown_writes_trigger", s.level0SlowdownTrigger(), options::setLevel0SlowdownWritesTrigger);
        set("level0_stop_writes_trigger", s.level0StopTrigger(), options::setLevel0StopWritesTrigger);
        set("soft_pending_compaction_bytes_limit", s.softPendingCompactionBytes(), options::setSoftPendingCompactionBytesLimit);
        set("hard_pending_compaction_bytes_limit", s.hardPendingCompactionBytes(), options::setHardPendingCompactionBytesLimit);

        // Background threads: Strata flushes on a thread of its own beside compactionThreads
        // compaction threads. RocksDB splits max_background_jobs into max(1, jobs / 4) flush
        // threads and the rest for compactions: exact for up to 6 compaction threads.
        set("max_background_jobs", s.compactionThreads() + 1, options::setMaxBackgroundJobs);
        set("max_subcompactions", 1, options::setMaxSubcompactions);
        set("max_open_files", s.maxOpenTables(), options::setMaxOpenFiles);

        tables(s);
        compression(s.compressionPolicy(), s.numLevels());
        blobs(s);
        wal(s);
    }

    /** Blocks, bloom filters and the block cache; index and filter blocks stay with each open table, as in Strata. */
    private void tables(EngineOptions s) {
        set("block_size", (long) s.blockSize(), table::setBlockSize);
        set("block_restart_interval", s.blockRestartInterval(), table::setBlockRestartInterval);
        if (s.bloomBitsPerKey() > 0) {
            bloomFilter = new BloomFilter(s.bloomBitsPerKey(), false);
            table.setFilterPolicy(bloomFilter);
            recorded.put("filter_policy", "bloomfilter:" + s.bloomBitsPerKey() + ":false (full filter)");
        }
        set("cache_index_and_filter_blocks", false, table::setCacheIndexAndFilterBlocks);
        if (s.blockCacheSize() > 0) {
            blockCache = new LRUCache(s.blockCacheSize());
            table.setBlockCache(blockCache);
            recorded.put("block_cache", "LRUCache capacity=" + s.blockCacheSize());
        } else {
            set("no_block_cache", true, table::setNoBlockCache);
        }
        options.setTableFormatConfig(table);
    }

    /**
     * Codecs by level. With dynamic level sizing RocksDB applies compression_per_level[1] to the
     * base level wherever it sits, [2] to the level below it, and so on, and bottommost_compression
     * to the last level; so a policy maps exactly when it is the same on every level from L1 on
     * except the bottommost, which Strata's role-based and uniform policies are.
     */
    private void compression(CompressionPolicy policy, int numLevels) {
        List<CompressionType> perLevel = new ArrayList<>();
        for (int level = 0; level < numLevels; level++) {
            perLevel.add(type(policy.codecFor(level, false)));
        }
        if (numLevels > 2 && !perLevel.subList(2, numLevels).stream().allMatch(perLevel.get(1)::equals)) {
            throw new IllegalArgumentException("compression policy " + policy
                    + " has no RocksDB counterpart: with dynamic level sizing RocksDB numbers levels from the base level,"
                    + " so only policies with one codec on every level between L0 and the bottommost can be mirrored");
        }
        if (policy.zstdLevel() != ROCKSDB_DEFAULT_ZSTD_LEVEL) {
            throw new IllegalArgumentException("zstd level " + policy.zstdLevel() + " is not mirrored; only RocksDB's default "
                    + ROCKSDB_DEFAULT_ZSTD_LEVEL + " is");
        }
        set("compression_per_level", perLevel, options::setCompressionPerLevel);
        set("bottommost_compression", type(policy.codecFor(numLevels - 1, true)), options::setBottommostCompressionType);
        recorded.put("zstd_level", ROCKSDB_DEFAULT_ZSTD_LEVEL + " (RocksDB's default, not set)");
    }

    /** Integrated BlobDB in place of Strata's value logs: separated at flush and compaction, GC inside compaction. */
    private void blobs(EngineOptions s) {
        if (s.valueLogDir() != null) {
            throw new IllegalArgumentException("valueLogDir " + s.valueLogDir()
                    + " is not mirrored: RocksDB keeps blob files beside its tables");
        }
        set("enable_blob_files", s.valueLogEnabled(), options::setEnableBlobFiles);
        if (!s.valueLogEnabled()) {
            return;
        }
        set("min_blob_size", (long) s.minBlobSize(), options::setMinBlobSize);
        set("blob_file_size", s.valueLogFileSize(), options::setBlobFileSize);
        // A value written once stays where it was written, like a value-log record: it gets the
        // codec for long-lived data, unless the run asks for RocksDB's default of none.
        set("blob_compression_type", blobCompression == BlobCompression.NONE ? CompressionType.NO_COMPRESSION
                : type(s.compressionPolicy().longLivedCodec()), options::setBlobCompressionType);
        set("enable_blob_garbage_collection", true, options::setEnableBlobGarbageCollection);
        // Strata's garbage-ratio and space-amplification triggers have no RocksDB counterpart;
        // RocksDB's own defaults are what a BlobDB user gets.
        set("blob_garbage_collection_age_cutoff", BLOB_GC_AGE_CUTOFF, options::setBlobGarbageCollectionAgeCutoff);
        set("blob_garbage_collection_force_threshold", BLOB_GC_FORCE_THRESHOLD,
                options::setBlobGarbageCollectionForceThreshold);
    }

    /** Strata's WAL modes as RocksDB write options: NO_SYNC writes the log without fsync, as sync=false does. */
    private void wal(EngineOptions s) {
        switch (s.walMode()) {
            case SYNC -> set("WriteOptions.sync", true, writeOptions::setSync);
            case NO_SYNC -> set("WriteOptions.sync", false, writeOptions::setSync);
            case DISABLED -> set("WriteOptions.disableWAL", true, writeOptions::setDisableWAL);
        }
    }

    private static CompressionType type(Codec codec) {
        return switch (codec) {
            case NONE -> CompressionType.NO_COMPRESSION;
            case SNAPPY -> CompressionType.SNAPPY_COMPRESSION;
            case LZ4 -> CompressionType.LZ4_COMPRESSION;
            case ZSTD -> CompressionType.ZSTD_COMPRESSION;
        };
    }

    /** Applies one option and records it; numbers and booleans as they are, anything else as text. */
    private <T> void set(String name, T value, Consumer<T> setter) {
        setter.accept(value);
        recorded.put(name, value instanceof Number || value instanceof Boolean ? value : String.valueOf(value));
    }

    @Override
    public void close() {
        readOptions.close();
        writeOptions.close();
        options.close();
        if (bloomFilter != null) {
            bloomFilter.close();
        }
        if (blockCache != null) {
            blockCache.close();
        }
    }
}
