package dev.strata.bench;

import dev.strata.cli.ByteSizeConverter;
import dev.strata.engine.EngineException;
import dev.strata.engine.WalMode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Flags shared by the subcommands that open an engine. A size or count left unset keeps the
 * engine's own default; only the WAL mode has a benchmark default (no fsync, like db_bench's
 * {@code sync=false}).
 */
final class EngineFlags {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--wal-mode", defaultValue = "NO_SYNC", paramLabel = "MODE",
            description = "Write-ahead log mode: ${COMPLETION-CANDIDATES} (${DEFAULT-VALUE}).")
    WalMode walMode;

    @Option(names = "--write-buffer-size", converter = ByteSizeConverter.class, paramLabel = "BYTES",
            description = "Memtable size before a flush, e.g. 64MiB (default: the engine's).")
    Long writeBufferSize;

    @Option(names = "--block-size", converter = ByteSizeConverter.class, paramLabel = "BYTES",
            description = "Uncompressed data block size, e.g. 4k (default: the engine's).")
    Long blockSize;

    @Option(names = "--bloom-bits", paramLabel = "N",
            description = "Bloom filter bits per key, 0 for none (default: the engine's).")
    Integer bloomBitsPerKey;

    @Option(names = "--target-file-size", converter = ByteSizeConverter.class, paramLabel = "BYTES",
            description = "Size compaction output files are cut at (default: the engine's).")
    Long targetFileSize;

    @Option(names = "--level1-max-bytes", converter = ByteSizeConverter.class, paramLabel = "BYTES",
            description = "Target size of level 1 (default: the engine's).")
    Long level1MaxBytes;

    @Option(names = "--compaction-threads", paramLabel = "N",
            description = "Background compaction threads (default: the engine's).")
    Integer compactionThreads;

    @Option(names = "--compression", defaultValue = "DEFAULT", paramLabel = "CODEC",
            description = "Block compression: DEFAULT keeps the engine's per-level policy; ADAPTIVE is its adaptive "
                    + "policy (value logs LZ4 while the engine is behind, recompressed with zstd once calm); NONE, SNAPPY, "
                    + "LZ4 or ZSTD puts that codec on every level (${DEFAULT-VALUE}).")
    TargetConfig.Compression compression;

    @Option(names = "--value-log-garbage-ratio", paramLabel = "FRACTION",
            description = "Strata only: garbage fraction at which a value-log file is collected (default: the engine's). "
                    + "RocksDB keeps its own blob GC settings.")
    Double valueLogGarbageRatio;

    @Option(names = "--value-log-space-amp", paramLabel = "RATIO",
            description = "Strata only: value-log space amplification target, 0 for none (default: the engine's).")
    Double valueLogSpaceAmplification;

    /**
     * The settings these flags ask for, checked by building Strata's options from them, so a bad
     * value is refused before any engine opens, whichever engines run.
     *
     * @throws ParameterException naming the bad value
     */
    TargetConfig toConfig() {
        if (blockSize != null && blockSize > Integer.MAX_VALUE) {
            throw new ParameterException(spec.commandLine(), "--block-size must be < 2 GiB, was " + blockSize);
        }
        TargetConfig config = new TargetConfig(walMode, writeBufferSize, blockSize == null ? null : blockSize.intValue(),
                bloomBitsPerKey, targetFileSize, level1MaxBytes, compactionThreads, compression, valueLogGarbageRatio,
                valueLogSpaceAmplification);
        try {
            config.toEngineOptions();
        } catch (EngineException e) {
            throw new ParameterException(spec.commandLine(), "Invalid engine option: " + e.getMessage(), e);
        }
        return config;
    }
}
