package dev.strata.bench;

import dev.strata.cli.bench.MachineInfo;
import dev.strata.engine.EngineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code strata-bench engine}: db_bench-style benchmarks of the storage engine, embedded in this
 * process. The benchmarks run in the order given, on the same database, so later ones read what
 * earlier ones wrote.
 *
 * <p>With several engines ({@code --engines strata,rocksdb}) each round runs every engine in
 * turn, each in a fresh directory, on the same keys and values (the same seed), in this one
 * process; {@code --rounds} repeats that, so the engines alternate. A summary of medians and
 * ratios follows. An unrecorded warm-up run per engine, on a tenth of the keys, comes first.
 */
@Command(name = "engine", sortOptions = false,
        description = {"Benchmarks the storage engine in this process, like RocksDB's db_bench, alone or beside RocksDB.",
                "Benchmarks run in the order given on the same database: fillseq, fillrandom, overwrite, "
                        + "readrandom, readseq, seekrandom, readwhilewriting, flush, compact."})
final class EngineCommand implements Callable<Integer> {
    /** Keys of a warm-up run at least, so every hot path runs often enough to be compiled. */
    private static final long WARMUP_MIN_KEYS = 10_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--benchmarks", split = ",", paramLabel = "NAME,...", hideParamSyntax = true,
            defaultValue = "fillseq,fillrandom,overwrite,readrandom,readseq,seekrandom",
            description = "Benchmarks to run, in order (${DEFAULT-VALUE}).")
    List<Benchmark> benchmarks;

    @Option(names = "--engines", split = ",", paramLabel = "NAME,...", hideParamSyntax = true, defaultValue = "strata",
            description = "Engines to run, in turn within each round, each in a fresh directory: strata, rocksdb "
                    + "(RocksDB configured to mirror Strata's options) (${DEFAULT-VALUE}). With two, ratios are "
                    + "the first over the second.")
    List<TargetEngine> engines;

    @Option(names = "--rounds", defaultValue = "1", paramLabel = "N",
            description = "Times to run every engine; the summary gives medians (${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--num", defaultValue = "1000000", paramLabel = "N",
            description = "Size of the key space: keys are numbered [0, N), each " + Keys.SIZE + " bytes; "
                    + "also the puts of each fill (${DEFAULT-VALUE}).")
    long num;

    @Mixin
    DataFlags data;

    @Option(names = "--overwrite-rounds", defaultValue = "1", paramLabel = "N",
            description = "Overwrite puts N x --num keys, so the key space is overwritten about N times "
                    + "(${DEFAULT-VALUE}).")
    int overwriteRounds;

    @Option(names = "--reads", paramLabel = "N",
            description = "Gets of readrandom and readwhilewriting, seeks of seekrandom (default: --num).")
    Long reads;

    @Option(names = "--seek-nexts", defaultValue = "10", paramLabel = "N",
            description = "Entries each seekrandom seek reads (${DEFAULT-VALUE}).")
    int seekNexts;

    @Option(names = "--write-rate", defaultValue = "0", paramLabel = "PUTS_PER_S",
            description = "Puts per second of readwhilewriting's writer, the same for every engine so their reads "
                    + "compete with equal work; 0 writes as fast as it can, as db_bench does by default (${DEFAULT-VALUE}).")
    long writeRate;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "N",
            description = "Threads per benchmark; they share out the ops, except readseq, which each thread runs whole; "
                    + "readwhilewriting runs one writer thread beside them (${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--settle", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "After each benchmark that changes storage, wait for the engine's flushes, compactions and "
                    + "garbage collection to finish (timed apart), so disk figures include them and the next "
                    + "benchmark starts on a settled engine (default: on).")
    boolean settle;

    @Option(names = "--warmup", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Before the first round, run every engine once on a tenth of the keys and reads, unrecorded, "
                    + "so the JIT has compiled Strata's code and the harness's before anything is measured "
                    + "(default: on).")
    boolean warmup;

    @Mixin
    EngineFlags engineFlags;

    @Option(names = "--rocksdb-blob-compression", defaultValue = "FOLLOW", paramLabel = "MODE",
            description = "RocksDB's blob files: FOLLOW compresses them with the codec of Strata's value logs (equal "
                    + "compression); NONE leaves them uncompressed, RocksDB's default (${DEFAULT-VALUE}).")
    RocksDbOptions.BlobCompression rocksDbBlobCompression;

    @Option(names = "--db", paramLabel = "DIR",
            description = "Database directory, used as it is and kept (default: a fresh temporary one). With several "
                    + "runs each gets DIR/ENGINE-ROUND.")
    Path db;

    @Option(names = "--keep", description = "Keep the temporary database directories.")
    boolean keep;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    @Override
    public Integer call() throws Exception {
        Workload workload = workload();
        TargetConfig config = engineFlags.toConfig();
        EngineOptions options = config.toEngineOptions();
        for (TargetEngine engine : engines) {
            try {
                engine.check(options, rocksDbBlobCompression);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--engines " + engine.label() + ": " + e.getMessage(), e);
            }
        }
        String startedAt = Instant.now().toString();
        MachineInfo machine = MachineInfo.current();
        ConsoleReport console = new ConsoleReport(System.out);
        if (warmup) {
            Workload small = new Workload(Math.min(num, Math.max(WARMUP_MIN_KEYS, num / 10)), workload.valueSize(),
                    workload.compressibility(), workload.reads() / 10, workload.seekNexts(), workload.threads(),
                    workload.overwriteRounds(), workload.seed(), workload.writeRate());
            ConsoleReport silent = new ConsoleReport(new PrintStream(OutputStream.nullOutputStream()));
            for (TargetEngine engine : engines) {
                System.out.println("Warming up on " + engine.label() + " with " + small.num() + " keys ...");
                runOnce(engine, 0, options, small, null, machine, silent);
            }
        }
        List<RunReport> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (TargetEngine engine : engines) {
                runs.add(runOnce(engine, round, options, workload, db, machine, console));
            }
        }
        Comparison comparison = runs.size() > 1 ? Comparison.of(runs) : null;
        if (comparison != null) {
            console.comparison(comparison);
        }
        if (json != null) {
            JsonReport.write(json, new EngineReport(spec.name(), startedAt, machine,
                    benchmarks.stream().map(Benchmark::label).toList(), workload, config, settle, runs, comparison));
            System.out.println("JSON report: " + json);
        }
        return 0;
    }

    /**
     * One engine's run of every benchmark, in a fresh directory, closed and (unless kept) deleted afterwards.
     *
     * @param db the --db directory, or null for a temporary one
     */
    private RunReport runOnce(TargetEngine engine, int round, EngineOptions options, Workload workload, Path db,
                              MachineInfo machine, ConsoleReport console) throws Exception {
        // Start each run with a collected heap, so one engine's garbage is not the next one's pause.
        System.gc();
        boolean single = engines.size() == 1 && rounds == 1;
        Path dbPath = db == null || single ? db : db.resolve(engine.label() + "-" + round);
        try (DbDirectory dir = DbDirectory.create(dbPath, keep);
             BenchTarget target = engine.open(dir.path(), options, rocksDbBlobCompression)) {
            console.header(spec.name(), target, round, rounds, workload, dir, machine);
            BenchmarkRunner runner = new BenchmarkRunner(target, dir.path(), workload, settle);
            List<BenchmarkResult> results = new ArrayList<>();
            for (Benchmark benchmark : benchmarks) {
                BenchmarkResult result = runner.run(benchmark);
                console.result(benchmark, result);
                results.add(result);
            }
            return new RunReport(target.name(), round, dir.path().toString(), target.settings(), results,
                    target.stats());
        }
    }

    private Workload workload() {
        data.validate();
        if (num < 1 || num > Keys.MAX_COUNT) {
            throw new ParameterException(spec.commandLine(), "--num must be in [1, " + Keys.MAX_COUNT + "], was " + num);
        }
        long readCount = reads != null ? reads : num;
        if (readCount < 0) {
            throw new ParameterException(spec.commandLine(), "--reads must be >= 0, was " + readCount);
        }
        if (seekNexts < 1) {
            throw new ParameterException(spec.commandLine(), "--seek-nexts must be >= 1, was " + seekNexts);
        }
        if (threads < 1 || threads > 1024) {
            throw new ParameterException(spec.commandLine(), "--threads must be in [1, 1024], was " + threads);
        }
        if (overwriteRounds < 1 || overwriteRounds > Long.MAX_VALUE / num) {
            throw new ParameterException(spec.commandLine(),
                    "--overwrite-rounds must be >= 1 and keep rounds x --num in a long, was " + overwriteRounds);
        }
        if (rounds < 1) {
            throw new ParameterException(spec.commandLine(), "--rounds must be >= 1, was " + rounds);
        }
        if (new HashSet<>(engines).size() != engines.size()) {
            throw new ParameterException(spec.commandLine(), "--engines names an engine twice: "
                    + engines.stream().map(TargetEngine::label).toList());
        }
        if (writeRate < 0) {
            throw new ParameterException(spec.commandLine(), "--write-rate must be >= 0, was " + writeRate);
        }
        return new Workload(num, data.valueSize, data.compressibility, readCount, seekNexts, threads, overwriteRounds,
                data.seedOrFresh(), writeRate);
    }
}
