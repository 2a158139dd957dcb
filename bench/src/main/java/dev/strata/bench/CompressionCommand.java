package dev.strata.bench;

import dev.strata.cli.ByteSizeConverter;
import dev.strata.cli.bench.MachineInfo;
import dev.strata.engine.EngineException;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.WalMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code strata-bench compression}: the compression study. For every database size, block size
 * and policy (policies innermost, so the cases compared with each other run close in time), a
 * fresh Strata database is filled with fillrandom, flushed, settled and read with random gets and
 * one scan; the table gives the space saved, the write and read throughput and the CPU time.
 *
 * <p>Before the first round every policy runs once on the smallest size, unrecorded, to warm the
 * JIT up. Value separation is off, so every value is in the tables and block compression is all that
 * is measured. The level targets default to small ones, so a database reaches L3 within a few
 * minutes, and the block cache to none, so every read decompresses the block it needs.
 */
@Command(name = "compression", sortOptions = false,
        description = {"Compares block compression policies on Strata: per database size, block size and policy, "
                + "fills a fresh database, settles it, reads it, and reports space saving, write and read throughput "
                + "and CPU time."})
final class CompressionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--policies", split = ",", paramLabel = "NAME,...", hideParamSyntax = true,
            defaultValue = "none,snappy,lz4,zstd,fixed,default,l0none",
            description = "Policies: none, snappy, lz4, zstd (one codec everywhere), fixed (none,none,lz4,lz4,zstd,zstd,zstd "
                    + "by level number), default (Strata's, by role: L0 and middle levels lz4, bottommost zstd), l0none (the "
                    + "default with L0 uncompressed) (${DEFAULT-VALUE}).")
    List<StudyPolicy> policies;

    @Option(names = "--sizes", split = ",", paramLabel = "N,...", hideParamSyntax = true, defaultValue = "15000,1000000",
            description = "Database sizes, as key counts; each is the key space and the puts of the fill. With the "
                    + "default level targets and 100-byte values the first fits in L1 and the second reaches L3 "
                    + "(${DEFAULT-VALUE}).")
    List<Long> sizes;

    @Option(names = "--block-sizes", split = ",", converter = ByteSizeConverter.class, paramLabel = "BYTES,...",
            hideParamSyntax = true, defaultValue = "4k,16k,64k",
            description = "Uncompressed data block sizes (${DEFAULT-VALUE}).")
    List<Long> blockSizes;

    @Mixin
    DataFlags data;

    @Option(names = "--reads", defaultValue = "200000", paramLabel = "N",
            description = "Random gets per case (${DEFAULT-VALUE}).")
    long reads;

    @Option(names = "--rounds", defaultValue = "1", paramLabel = "N",
            description = "Times to run every case; the table gives medians (${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--write-buffer-size", converter = ByteSizeConverter.class, defaultValue = "512KiB", paramLabel = "BYTES",
            description = "Memtable size (${DEFAULT-VALUE}).")
    long writeBufferSize;

    @Option(names = "--target-file-size", converter = ByteSizeConverter.class, defaultValue = "1MiB", paramLabel = "BYTES",
            description = "Compaction output file size (${DEFAULT-VALUE}).")
    long targetFileSize;

    @Option(names = "--level1-max-bytes", converter = ByteSizeConverter.class, defaultValue = "2MiB", paramLabel = "BYTES",
            description = "Target size of L1; each deeper level is 10 times larger (${DEFAULT-VALUE}).")
    long level1MaxBytes;

    @Option(names = "--block-cache-size", converter = ByteSizeConverter.class, defaultValue = "0", paramLabel = "BYTES",
            description = "Block cache size; 0, the default, makes every read decompress its block, which is the cost "
                    + "being compared (${DEFAULT-VALUE}).")
    long blockCacheSize;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    @Override
    public Integer call() throws Exception {
        data.validate();
        validate();
        long seed = data.seedOrFresh();
        String startedAt = Instant.now().toString();
        MachineInfo machine = MachineInfo.current();
        PrintStream out = System.out;
        EngineOptions shared = options(blockSizes.getFirst(), StudyPolicy.DEFAULT);
        out.printf(Locale.ROOT, "strata-bench compression: %d-byte values (compressibility %.2f), seed %d, %d gets per case, "
                        + "%d round(s)%n", data.valueSize, data.compressibility, seed, reads, rounds);
        out.printf(Locale.ROOT, "Options:     %s%n", StrataTarget.describe(shared));
        // Unrecorded: every policy once on the smallest size, so the JIT has compiled the engine's
        // and every codec's paths before the first measured case.
        long smallest = sizes.stream().mapToLong(Long::longValue).min().orElseThrow();
        for (StudyPolicy policy : policies) {
            runCase(policy, smallest, blockSizes.getFirst().intValue(), 0, seed);
        }
        List<CompressionRun> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (long keys : sizes) {
                for (long blockSize : blockSizes) {
                    for (StudyPolicy policy : policies) {
                        CompressionRun run = runCase(policy, keys, (int) blockSize, round, seed);
                        out.printf(Locale.ROOT, "round %d  %8d keys  %3d KiB blocks  %-8s saving %5.1f%%  write %6.1f MB/s  "
                                        + "gets %8.0f/s  scan %6.1f MB/s  %s%n", round, keys, blockSize >> 10, policy.label(),
                                run.spaceSaving() * 100, run.writeMbPerSecond(), run.readRandom().opsPerSecond(),
                                run.readSeq().mbPerSecond(), run.levels().stream()
                                        .map(l -> "L" + l.level()).reduce((a, b) -> a + "," + b).orElse("empty"));
                        runs.add(run);
                    }
                }
            }
        }
        List<CompressionRow> rows = CompressionRow.summarise(runs);
        table(out, rows);
        if (json != null) {
            JsonReport.write(json, new CompressionReport(spec.name(), startedAt, machine, data.valueSize,
                    data.compressibility, reads, seed, StrataTarget.describe(shared), runs, rows));
            out.println("JSON report: " + json);
        }
        return 0;
    }

    /** One case in a fresh temporary directory, deleted afterwards. */
    private CompressionRun runCase(StudyPolicy policy, long keys, int blockSize, int round, long seed) throws Exception {
        // Start each case with a collected heap, so one case's garbage is not the next one's pause.
        System.gc();
        // One thread; seeks and overwrites do not run here, so their counts are the minimum.
        Workload workload = new Workload(keys, data.valueSize, data.compressibility, reads, 1, 1, 1, seed, 0);
        try (DbDirectory dir = DbDirectory.create(null, false);
             StrataTarget target = StrataTarget.open(dir.path(), options(blockSize, policy))) {
            BenchmarkRunner runner = new BenchmarkRunner(target, dir.path(), workload, true);
            BenchmarkResult fill = runner.run(Benchmark.FILLRANDOM);
            BenchmarkResult flush = runner.run(Benchmark.FLUSH);
            BenchmarkResult readRandom = runner.run(Benchmark.READRANDOM);
            BenchmarkResult readSeq = runner.run(Benchmark.READSEQ);
            return new CompressionRun(policy.label(), keys, blockSize, round, fill, flush, readRandom, readSeq,
                    flush.storageAfter().levels(), flush.disk().directoryBytes());
        }
    }

    /** The study's options: no fsync, no value separation, the given block size and policy. */
    private EngineOptions options(long blockSize, StudyPolicy policy) {
        return EngineOptions.builder()
                .walMode(WalMode.NO_SYNC)
                .writeBufferSize(writeBufferSize)
                .targetFileSize(targetFileSize)
                .level1MaxBytes(level1MaxBytes)
                .blockSize((int) blockSize)
                .blockCacheSize(blockCacheSize)
                .compressionPolicy(policy.policy())
                .valueLogEnabled(false)
                .build();
    }

    /** Checks every flag before the first case, so a bad value does not surface an hour in. */
    private void validate() {
        if (policies.isEmpty() || sizes.isEmpty() || blockSizes.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--policies, --sizes and --block-sizes must not be empty");
        }
        for (long keys : sizes) {
            if (keys < 1 || keys > Keys.MAX_COUNT) {
                throw new ParameterException(spec.commandLine(), "--sizes must be in [1, " + Keys.MAX_COUNT + "], was " + keys);
            }
        }
        if (reads < 0) {
            throw new ParameterException(spec.commandLine(), "--reads must be >= 0, was " + reads);
        }
        if (rounds < 1) {
            throw new ParameterException(spec.commandLine(), "--rounds must be >= 1, was " + rounds);
        }
        for (long blockSize : blockSizes) {
            if (blockSize > Integer.MAX_VALUE) {
                throw new ParameterException(spec.commandLine(), "--block-sizes must be < 2 GiB, was " + blockSize);
            }
            try {
                options(blockSize, StudyPolicy.DEFAULT);
            } catch (EngineException e) {
                throw new ParameterException(spec.commandLine(), "Invalid engine option: " + e.getMessage(), e);
            }
        }
    }

    /** The table: one line per case, cases of one size and block size together. */
    private static void table(PrintStream out, List<CompressionRow> rows) {
        out.println("-".repeat(60));
        out.println("Medians per case; saving = 1 - stored/raw over every table; write = fill + flush with their "
                + "background work; vs none = over no compression at the same size and block size");
        String header = "%-9s %-6s %-8s %6s %8s %8s %9s %9s %7s %8s %9s %7s  %s%n";
        out.printf(Locale.ROOT, header, "keys", "block", "policy", "saving", "stored", "write", "write cpu",
                "gets/s", "vs none", "get cpu", "scan MB/s", "vs none", "levels (files:MiB)");
        out.printf(Locale.ROOT, header, "", "", "", "", "", "MB/s", "s", "", "", "us/get", "", "", "");
        for (CompressionRow r : rows) {
            out.printf(Locale.ROOT, "%-9d %-6s %-8s %5.1f%% %8s %8.1f %9.2f %9.0f %7s %8.2f %9.1f %7s  %s%n", r.keys(),
                    (r.blockSize() >> 10) + "K", r.policy(), r.spaceSaving() * 100, ConsoleReport.bytes(r.storedBytes()),
                    r.writeMbPerSecond(), r.writeCpuSeconds(), r.getsPerSecond(), ConsoleReport.ratio(r.getVsNone()), r.getCpuMicros(),
                    r.scanMbPerSecond(), ConsoleReport.ratio(r.scanVsNone()), r.shape());
        }
    }
}
