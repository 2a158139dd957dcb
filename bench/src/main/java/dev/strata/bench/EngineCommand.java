package dev.strata.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code strata-bench engine}: db_bench-style benchmarks of the storage engine, embedded in this
 * process. The benchmarks run in the order given, on the same database, so later ones read what
 * earlier ones wrote.
 */
@Command(name = "engine", sortOptions = false,
        description = {"Benchmarks the storage engine in this process, like RocksDB's db_bench.",
                "Benchmarks run in the order given on the same database: fillseq, fillrandom, overwrite, "
                        + "readrandom, readseq, seekrandom, flush, compact."})
final class EngineCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--benchmarks", split = ",", paramLabel = "NAME,...", hideParamSyntax = true,
            defaultValue = "fillseq,fillrandom,overwrite,readrandom,readseq,seekrandom",
            description = "Benchmarks to run, in order (${DEFAULT-VALUE}).")
    List<Benchmark> benchmarks;

    @Mixin
    DataFlags data;

    @Option(names = "--reads", paramLabel = "N",
            description = "Gets of readrandom and seeks of seekrandom (default: --num).")
    Long reads;

    @Option(names = "--seek-nexts", defaultValue = "10", paramLabel = "N",
            description = "Entries each seekrandom seek reads (${DEFAULT-VALUE}).")
    int seekNexts;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "N",
            description = "Threads per benchmark; they share out the ops, except readseq, which each thread runs whole "
                    + "(${DEFAULT-VALUE}).")
    int threads;

    @Mixin
    EngineFlags engineFlags;

    @Option(names = "--db", paramLabel = "DIR",
            description = "Database directory, used as it is and kept (default: a fresh temporary one).")
    Path db;

    @Option(names = "--keep", description = "Keep the temporary database directory.")
    boolean keep;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    @Override
    public Integer call() throws Exception {
        Workload workload = workload();
        TargetConfig config = engineFlags.toConfig();
        String startedAt = Instant.now().toString();
        MachineInfo machine = MachineInfo.current();
        ConsoleReport console = new ConsoleReport(System.out);
        try (DbDirectory dir = DbDirectory.create(db, keep);
             BenchTarget target = StrataTarget.open(dir.path(), config)) {
            console.header(spec.name(), target, workload, dir, machine);
            BenchmarkRunner runner = new BenchmarkRunner(target, workload);
            List<BenchmarkResult> results = new ArrayList<>();
            for (Benchmark benchmark : benchmarks) {
                BenchmarkResult result = runner.run(benchmark);
                console.result(benchmark, result);
                results.add(result);
            }
            if (json != null) {
                JsonReport.write(json, new EngineReport(spec.name(), startedAt, machine, target.name(),
                        dir.path().toString(), benchmarks.stream().map(Benchmark::label).toList(), workload, config,
                        target.settings(), results, target.stats()));
                System.out.println("JSON report: " + json);
            }
        }
        return 0;
    }

    private Workload workload() {
        data.validate();
        long readCount = reads != null ? reads : data.num;
        if (readCount < 0) {
            throw new ParameterException(spec.commandLine(), "--reads must be >= 0, was " + readCount);
        }
        if (seekNexts < 1) {
            throw new ParameterException(spec.commandLine(), "--seek-nexts must be >= 1, was " + seekNexts);
        }
        if (threads < 1 || threads > 1024) {
            throw new ParameterException(spec.commandLine(), "--threads must be in [1, 1024], was " + threads);
        }
        return new Workload(data.num, data.valueSize, data.compressibility, readCount, seekNexts, threads,
                data.seedOrFresh());
    }
}
