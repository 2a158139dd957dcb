package dev.strata.engine;

import dev.strata.engine.compress.CompressionPolicy;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Options for {@link Engine#open}. Build with {@link #builder()}; {@link #defaults()} gives the
 * values below. Every option is validated when built, with a message that names the value.
 *
 * @param walMode                  how writes are logged before they reach a table (default {@link WalMode#SYNC})
 * @param walRecovery              what opening does with damage in the logs it replays (default
 *                                 {@link WalRecovery#STRICT})
 * @param flushAfterRecovery       whether opening writes what it replayed from the logs as an L0 table before it
 *                                 returns (default true); false keeps those writes in the memtable, still backed by
 *                                 the logs they came from, until its next flush (RocksDB's
 *                                 {@code avoid_flush_during_recovery}): a faster open, whose flush comes with the next
 *                                 memtable's worth of writes. A replay that met damage is flushed either way.
 * @param writeBufferSize          memtable bytes before it is frozen and flushed (default 32 MiB); larger
 *                                 means fewer, larger L0 files and more memory
 * @param maxImmutableMemtables    frozen memtables waiting for flush before writes stall (default 2);
 *                                 memory is bounded by (1 + this) x writeBufferSize
 * @param blockSize                uncompressed size a data block is cut at (default 16 KiB); larger blocks
 *                                 compress better and cost more per point read
 * @param blockRestartInterval     keys between restart points inside a block (default 16)
 * @param bloomBitsPerKey          bloom filter bits per key (default 10, about 1% false positives); 0 = no filter
 * @param targetFileSize           size a compaction output file is cut at (default 8 MiB)
 * @param level1MaxBytes           stored-byte target of L1 (default 64 MiB)
 * @param levelSizeMultiplier      each level's target is this times the one above (default 10)
 * @param numLevels                levels including L0 (default 7)
 * @param level0CompactionTrigger  L0 files that start an L0 compaction (default 4)
 * @param level0SlowdownTrigger    L0 files at which each write is delayed by 1 ms (default 12)
 * @param level0StopTrigger        L0 files at which writes wait for compaction (default 20)
 * @param softPendingCompactionBytes estimated compaction debt at which writes slow down (default 16 GiB)
 * @param hardPendingCompactionBytes estimated compaction debt at which writes stop (default 64 GiB)
 * @param compactionThreads        background compaction threads (default 1; flushes have their own thread)
 * @param maxOpenTables            table files kept open with their index and filter (default 1000)
 * @param blockCacheSize           bytes of uncompressed data blocks cached (default 64 MiB; 0 disables it)
 * @param maxManifestFileSize      manifest bytes before it is rewritten as a fresh snapshot (default 64 MiB)
 * @param compressionPolicy        codec per level (default {@link CompressionPolicy#defaults()})
 * @param valueLogEnabled          separate large values into value-log files (default true)
 * @param minBlobSize              values of at least this many bytes are separated (default 1 KiB); smaller
 *                                 values stay in the tables, where small writes are cheapest
 * @param valueLogDir              where value-log files live (default null: the data directory); another
 *                                 device lets keys sit on fast storage and values on large storage
 * @param valueLogFileSize         a compaction's value-log output is cut at this size (default 256 MiB)
 * @param valueLogGarbageRatio     a value-log file with at least this fraction of garbage has its live values
 *                                 relocated by the compactions that read them (default 0.5; Titan's choice:
 *                                 value write amplification at most 1/r, space amplification at most 1/(1-r))
 * @param valueLogSpaceAmplification when all value logs take more than this times their live bytes, the files
 *                                 with the most garbage are collected too (default 1.5; 0 turns this off)
 * @param checkpointsToKeep        checkpoints kept (hard-linked) after a newer one is taken (default 2)
 * @param deltaRetention           the incremental chain keeps flush outputs compaction removed while they take
 *                                 at most this fraction of the live data size (default 0: no chain, as an embedded
 *                                 engine has no replica to catch up; the server keeps 0.25)
 * @param eventListener            told about background work (default {@link EngineEventListener#NONE})
 */
public record EngineOptions(
        WalMode walMode,
        WalRecovery walRecovery,
        boolean flushAfterRecovery,
        long writeBufferSize,
        int maxImmutableMemtables,
        int blockSize,
        int blockRestartInterval,
        int bloomBitsPerKey,
        long targetFileSize,
        long level1MaxBytes,
        int levelSizeMultiplier,
        int numLevels,
        int level0CompactionTrigger,
        int level0SlowdownTrigger,
        int level0StopTrigger,
        long softPendingCompactionBytes,
        long hardPendingCompactionBytes,
        int compactionThreads,
        int maxOpenTables,
        long blockCacheSize,
        long maxManifestFileSize,
        CompressionPolicy compressionPolicy,
        boolean valueLogEnabled,
        int minBlobSize,
        Path valueLogDir,
        long valueLogFileSize,
        double valueLogGarbageRatio,
        double valueLogSpaceAmplification,
        int checkpointsToKeep,
        double deltaRetention,
        EngineEventListener eventListener) {

    private static final long KiB = 1024;
    private static final long MiB = 1024 * KiB;
    private static final long GiB = 1024 * MiB;

    public EngineOptions {
        Objects.requireNonNull(walMode, "walMode");
        Objects.requireNonNull(walRecovery, "walRecovery");
        Objects.requireNonNull(compressionPolicy, "compressionPolicy");
        Objects.requireNonNull(eventListener, "eventListener");
        require(writeBufferSize >= 64 * KiB && writeBufferSize <= 4 * GiB, "writeBufferSize", writeBufferSize, "in [64 KiB, 4 GiB]");
        require(maxImmutableMemtables >= 1 && maxImmutableMemtables <= 16, "maxImmutableMemtables", maxImmutableMemtables, "in [1, 16]");
        require(blockSize >= 256 && blockSize <= 4 * MiB, "blockSize", blockSize, "in [256 B, 4 MiB]");
        require(blockRestartInterval >= 1 && blockRestartInterval <= 1024, "blockRestartInterval", blockRestartInterval, "in [1, 1024]");
        require(bloomBitsPerKey >= 0 && bloomBitsPerKey <= 64, "bloomBitsPerKey", bloomBitsPerKey, "in [0, 64]");
        require(targetFileSize >= 64 * KiB && targetFileSize <= 4 * GiB, "targetFileSize", targetFileSize, "in [64 KiB, 4 GiB]");
        require(level1MaxBytes >= targetFileSize, "level1MaxBytes", level1MaxBytes, ">= targetFileSize (" + targetFileSize + ")");
        require(levelSizeMultiplier >= 2 && levelSizeMultiplier <= 100, "levelSizeMultiplier", levelSizeMultiplier, "in [2, 100]");
        require(numLevels >= 2 && numLevels <= 12, "numLevels", numLevels, "in [2, 12]");
        require(level0CompactionTrigger >= 1, "level0CompactionTrigger", level0CompactionTrigger, ">= 1");
        require(level0SlowdownTrigger >= level0CompactionTrigger, "level0SlowdownTrigger", level0SlowdownTrigger,
                ">= level0CompactionTrigger (" + level0CompactionTrigger + ")");
        require(level0StopTrigger >= level0SlowdownTrigger, "level0StopTrigger", level0StopTrigger,
                ">= level0SlowdownTrigger (" + level0SlowdownTrigger + ")");
        require(softPendingCompactionBytes > 0, "softPendingCompactionBytes", softPendingCompactionBytes, "> 0");
        require(hardPendingCompactionBytes >= softPendingCompactionBytes, "hardPendingCompactionBytes",
                hardPendingCompactionBytes, ">= softPendingCompactionBytes (" + softPendingCompactionBytes + ")");
        require(compactionThreads >= 1 && compactionThreads <= 64, "compactionThreads", compactionThreads, "in [1, 64]");
        require(maxOpenTables >= 16, "maxOpenTables", maxOpenTables, ">= 16");
        require(blockCacheSize >= 0, "blockCacheSize", blockCacheSize, ">= 0");
        require(maxManifestFileSize >= 64 * KiB, "maxManifestFileSize", maxManifestFileSize, ">= 64 KiB");
        require(minBlobSize >= 1, "minBlobSize", minBlobSize, ">= 1");
        require(valueLogFileSize >= 64 * KiB, "valueLogFileSize", valueLogFileSize, ">= 64 KiB");
        if (!(valueLogGarbageRatio > 0 && valueLogGarbageRatio <= 1)) {
            throw new EngineException(EngineException.Code.INVALID_ARGUMENT,
                    "valueLogGarbageRatio must be in (0, 1], was " + valueLogGarbageRatio);
        }
        if (!(valueLogSpaceAmplification == 0 || valueLogSpaceAmplification > 1)) {
            throw new EngineException(EngineException.Code.INVALID_ARGUMENT,
                    "valueLogSpaceAmplification must be 0 (off) or above 1, was " + valueLogSpaceAmplification);
        }
        requireRetention(checkpointsToKeep, deltaRetention);
    }

    /** Checked after the value-log rules; see the record comment for each value's meaning. */
    private static void requireRetention(int checkpointsToKeep, double deltaRetention) {
        require(checkpointsToKeep >= 1 && checkpointsToKeep <= 100, "checkpointsToKeep", checkpointsToKeep, "in [1, 100]");
        if (!(deltaRetention >= 0 && deltaRetention <= 10)) {
            throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "deltaRetention must be in [0, 10], was "
                    + deltaRetention);
        }
    }

    /** The directory value-log files live in for a database in {@code dataDir}. */
    public Path valueLogDirFor(Path dataDir) {
        return valueLogDir != null ? valueLogDir : dataDir;
    }

    private static void require(boolean ok, String name, long value, String rule) {
        if (!ok) {
            throw new EngineException(EngineException.Code.INVALID_ARGUMENT, name + " must be " + rule + ", was " + value);
        }
    }

    public static EngineOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The stored-byte target of {@code level} (1 or deeper). */
    public long maxBytesForLevel(int level) {
        long bytes = level1MaxBytes;
        for (int l = 2; l <= level; l++) {
            bytes = Math.multiplyHigh(bytes, levelSizeMultiplier) != 0 ? Long.MAX_VALUE : bytes * levelSizeMultiplier;
        }
        return bytes;
    }

    /** Builds {@link EngineOptions}; every setter returns this builder. */
    public static final class Builder {
        private WalMode walMode = WalMode.SYNC;
        private WalRecovery walRecovery = WalRecovery.STRICT;
        private boolean flushAfterRecovery = true;
        private long writeBufferSize = 32 * MiB;
        private int maxImmutableMemtables = 2;
        private int blockSize = (int) (16 * KiB);
        private int blockRestartInterval = 16;
        private int bloomBitsPerKey = 10;
        private long targetFileSize = 8 * MiB;
        private long level1MaxBytes = 64 * MiB;
        private int levelSizeMultiplier = 10;
        private int numLevels = 7;
        private int level0CompactionTrigger = 4;
        private int level0SlowdownTrigger = 12;
        private int level0StopTrigger = 20;
        private long softPendingCompactionBytes = 16 * GiB;
        private long hardPendingCompactionBytes = 64 * GiB;
        private int compactionThreads = 1;
        private int maxOpenTables = 1000;
        private long blockCacheSize = 64 * MiB;
        private long maxManifestFileSize = 64 * MiB;
        private CompressionPolicy compressionPolicy = CompressionPolicy.defaults();
        private boolean valueLogEnabled = true;
        private int minBlobSize = (int) KiB;
        private Path valueLogDir;
        private long valueLogFileSize = 256 * MiB;
        private double valueLogGarbageRatio = 0.5;
        private double valueLogSpaceAmplification = 1.5;
        private int checkpointsToKeep = 2;
        private double deltaRetention = 0;
        private EngineEventListener eventListener = EngineEventListener.NONE;

        private Builder() {}

        private Builder(EngineOptions o) {
            walMode = o.walMode;
            walRecovery = o.walRecovery;
            flushAfterRecovery = o.flushAfterRecovery;
            writeBufferSize = o.writeBufferSize;
            maxImmutableMemtables = o.maxImmutableMemtables;
            blockSize = o.blockSize;
            blockRestartInterval = o.blockRestartInterval;
            bloomBitsPerKey = o.bloomBitsPerKey;
            targetFileSize = o.targetFileSize;
            level1MaxBytes = o.level1MaxBytes;
            levelSizeMultiplier = o.levelSizeMultiplier;
            numLevels = o.numLevels;
            level0CompactionTrigger = o.level0CompactionTrigger;
            level0SlowdownTrigger = o.level0SlowdownTrigger;
            level0StopTrigger = o.level0StopTrigger;
            softPendingCompactionBytes = o.softPendingCompactionBytes;
            hardPendingCompactionBytes = o.hardPendingCompactionBytes;
            compactionThreads = o.compactionThreads;
            maxOpenTables = o.maxOpenTables;
            blockCacheSize = o.blockCacheSize;
            maxManifestFileSize = o.maxManifestFileSize;
            compressionPolicy = o.compressionPolicy;
            valueLogEnabled = o.valueLogEnabled;
            minBlobSize = o.minBlobSize;
            valueLogDir = o.valueLogDir;
            valueLogFileSize = o.valueLogFileSize;
            valueLogGarbageRatio = o.valueLogGarbageRatio;
            valueLogSpaceAmplification = o.valueLogSpaceAmplification;
            checkpointsToKeep = o.checkpointsToKeep;
            deltaRetention = o.deltaRetention;
            eventListener = o.eventListener;
        }

        public Builder walMode(WalMode v) { walMode = v; return this; }
        public Builder walRecovery(WalRecovery v) { walRecovery = v; return this; }
        public Builder flushAfterRecovery(boolean v) { flushAfterRecovery = v; return this; }
        public Builder writeBufferSize(long bytes) { writeBufferSize = bytes; return this; }
        public Builder maxImmutableMemtables(int v) { maxImmutableMemtables = v; return this; }
        public Builder blockSize(int bytes) { blockSize = bytes; return this; }
        public Builder blockRestartInterval(int v) { blockRestartInterval = v; return this; }
        public Builder bloomBitsPerKey(int v) { bloomBitsPerKey = v; return this; }
        public Builder targetFileSize(long bytes) { targetFileSize = bytes; return this; }
        public Builder level1MaxBytes(long bytes) { level1MaxBytes = bytes; return this; }
        public Builder levelSizeMultiplier(int v) { levelSizeMultiplier = v; return this; }
        public Builder numLevels(int v) { numLevels = v; return this; }
        public Builder level0CompactionTrigger(int v) { level0CompactionTrigger = v; return this; }
        public Builder level0SlowdownTrigger(int v) { level0SlowdownTrigger = v; return this; }
        public Builder level0StopTrigger(int v) { level0StopTrigger = v; return this; }
        public Builder softPendingCompactionBytes(long bytes) { softPendingCompactionBytes = bytes; return this; }
        public Builder hardPendingCompactionBytes(long bytes) { hardPendingCompactionBytes = bytes; return this; }
        public Builder compactionThreads(int v) { compactionThreads = v; return this; }
        public Builder maxOpenTables(int v) { maxOpenTables = v; return this; }
        public Builder blockCacheSize(long bytes) { blockCacheSize = bytes; return this; }
        public Builder maxManifestFileSize(long bytes) { maxManifestFileSize = bytes; return this; }
        public Builder compressionPolicy(CompressionPolicy v) { compressionPolicy = v; return this; }
        public Builder valueLogEnabled(boolean v) { valueLogEnabled = v; return this; }
        public Builder minBlobSize(int bytes) { minBlobSize = bytes; return this; }
        public Builder valueLogDir(Path dir) { valueLogDir = dir; return this; }
        public Builder valueLogFileSize(long bytes) { valueLogFileSize = bytes; return this; }
        public Builder valueLogGarbageRatio(double v) { valueLogGarbageRatio = v; return this; }
        public Builder valueLogSpaceAmplification(double v) { valueLogSpaceAmplification = v; return this; }
        public Builder checkpointsToKeep(int v) { checkpointsToKeep = v; return this; }
        public Builder deltaRetention(double fraction) { deltaRetention = fraction; return this; }
        public Builder eventListener(EngineEventListener v) { eventListener = v; return this; }

        public EngineOptions build() {
            return new EngineOptions(walMode, walRecovery, flushAfterRecovery, writeBufferSize, maxImmutableMemtables,
                    blockSize, blockRestartInterval, bloomBitsPerKey, targetFileSize, level1MaxBytes, levelSizeMultiplier, numLevels,
                    level0CompactionTrigger, level0SlowdownTrigger, level0StopTrigger, softPendingCompactionBytes,
                    hardPendingCompactionBytes, compactionThreads, maxOpenTables, blockCacheSize, maxManifestFileSize,
                    compressionPolicy, valueLogEnabled, minBlobSize, valueLogDir, valueLogFileSize, valueLogGarbageRatio,
                    valueLogSpaceAmplification, checkpointsToKeep, deltaRetention, eventListener);
        }
    }
}
