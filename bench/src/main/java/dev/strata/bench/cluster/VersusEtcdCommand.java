package dev.strata.bench.cluster;

import dev.strata.bench.JsonReport;
import dev.strata.engine.checkpoint.FileLinks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code strata-bench versus-etcd}: Strata and etcd side by side under one driver. It starts a
 * three-member etcd ({@link LocalEtcd}) and a three-node Strata ({@link LocalStrata}) as real
 * processes on loopback, both at once, runs one unmeasured pass over every workload, then
 * measures every workload on both systems in each round (Strata first in odd rounds, etcd first
 * in even ones), and summarises the rounds ({@link VersusSummary}). Everything it started is
 * stopped by process id however it ends, and its temporary data is deleted.
 */
@Command(name = "versus-etcd", sortOptions = false,
        description = {"Starts a three-member etcd and a three-node Strata on this machine and measures both with the same "
                + "driver: put, linearizable get and serializable get, closed loop (--concurrency) or open loop (--rate), "
                + "to the leader or a follower; medians of the rounds and per-round ratios strata / etcd, failures apart, "
                + "CPU and bytes written per operation of each system.",
                "Build etcd with bench/etcd/build-etcd.sh DIR, then pass --etcd DIR/etcd."})
public final class VersusEtcdCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--etcd", required = true, paramLabel = "FILE",
            description = "The etcd binary (bench/etcd/build-etcd.sh builds 3.7.3).")
    Path etcd;

    @Option(names = "--strata-root", paramLabel = "DIR",
            description = "The Strata checkout whose built server (server/target) runs the nodes (default: the one this "
                    + "benchmark's jar is in, else the current directory).")
    Path strataRoot;

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "N",
            description = "Measured rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--value-sizes", split = ",", paramLabel = "BYTES,...", hideParamSyntax = true,
            defaultValue = "256,1024,16384", description = "Value sizes, one set of workloads each (default: ${DEFAULT-VALUE}).")
    List<Integer> valueSizes;

    @Option(names = "--to", split = ",", paramLabel = "leader|follower|all,...", hideParamSyntax = true,
            defaultValue = "leader,follower",
            description = "Where requests go, one set of workloads each (default: ${DEFAULT-VALUE}).")
    List<Placement> placements;

    @Option(names = "--node-heap", defaultValue = "1g", paramLabel = "SIZE",
            description = "Each Strata node's -Xms and -Xmx, as bin/strata-dev's and bin/strata-server's "
                    + "(default: ${DEFAULT-VALUE}).")
    String nodeHeap;

    @Option(names = "--node-java-option", paramLabel = "FLAG",
            description = "A JVM flag for every Strata node, after bin/strata-dev's own (repeatable), e.g. "
                    + "--node-java-option=-XX:+UseParallelGC. None by default.")
    List<String> nodeJavaOptions = new ArrayList<>();

    @Option(names = "--strata-flag", paramLabel = "--KEY=VALUE",
            description = "A server flag for every Strata node (repeatable; see bin/strata-server --help). None by default: "
                    + "the server's defaults.")
    List<String> strataFlags = new ArrayList<>();

    @Option(names = "--etcd-flag", paramLabel = "--FLAG=VALUE",
            description = "An etcd flag for every member (repeatable). None by default: etcd's defaults.")
    List<String> etcdFlags = new ArrayList<>();

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where the temporary directory of both clusters' data and logs goes (default: the system's).")
    Path dir;

    @Option(names = "--keep", description = "Keep the temporary directory (data and logs) after the run.")
    boolean keep;

    @Option(names = "--no-warmup-pass", description = "Skip the unmeasured pass over every workload before the first round.")
    boolean noWarmupPass;

    @Option(names = "--warmup-limit", defaultValue = "15", paramLabel = "MINUTES",
            description = "After the warm-up pass, more passes over every workload on Strata alone, each workload for "
                    + "max(5, --warmup) s, until its nodes' JIT compilers fall quiet (under 5%% of a core over a pass) or "
                    + "this many minutes have passed, checked between passes; 0: the one pass only "
                    + "(default: ${DEFAULT-VALUE}).")
    int warmupLimitMinutes;

    @Option(names = "--ready-timeout", defaultValue = "120", paramLabel = "SECONDS",
            description = "Longest wait for both clusters to be ready (default: ${DEFAULT-VALUE}).")
    int readyTimeoutSeconds;

    @Mixin
    DriverOptions options;

    /** The device both clusters' data is on, for the bytes it wrote in each window; empty when unknown. */
    private Optional<BlockDevice> device = Optional.empty();

    /** The settings of one comparison, for the report. */
    record Settings(int rounds, List<Integer> valueSizes, List<String> ops, List<Placement> to, List<Integer> concurrency,
                    List<Double> rates, Integer maxInFlight, int keys, int durationSeconds, int warmupSeconds,
                    boolean warmupPass, int warmupLimitMinutes, int deadlineSeconds, long seed) {}

    /** How one system was started. */
    record Setup(List<String> endpoints, List<Long> pids, List<String> jvmFlags, List<String> flags,
                 List<List<String>> commands) {}

    /** Everything a comparison measured, with what it ran on. */
    record Report(String startedAt, Provenance provenance, Settings settings, Map<String, Setup> systems,
                  List<Preload> preloads, List<RunResult> warmupPass, List<RunResult> runs, VersusSummary summary) {}

    @Override
    public Integer call() throws Exception {
        validate();
        StrataInstall strata = StrataInstall.find(strataRoot);
        Path parent = dir != null ? Files.createDirectories(dir) : Path.of(System.getProperty("java.io.tmpdir"));
        Path work = Files.createTempDirectory(parent, "strata-versus-etcd-");
        ProcessGroup group = new ProcessGroup();
        Thread onExit = new Thread(() -> cleanUp(group, work), "versus-etcd-cleanup");
        Runtime.getRuntime().addShutdownHook(onExit);
        try {
            return compare(strata, work, group);
        } finally {
            cleanUp(group, work);
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or ran: it does the same
            }
        }
    }

    private int compare(StrataInstall strata, Path work, ProcessGroup group) throws Exception {
        String startedAt = Instant.now().toString();
        Settings settings = new Settings(rounds, valueSizes, options.ops.stream().map(Op::label).toList(), placements,
                options.rates == null ? options.concurrency : null, options.rates,
                options.rates == null ? null : options.maxInFlight, options.keys, options.durationSeconds,
                options.warmupSeconds, !noWarmupPass && options.warmupSeconds > 0, warmupLimitMinutes, options.deadlineSeconds,
                options.seed);
        List<Workload> workloads = new ArrayList<>();
        valueSizes.forEach(size -> workloads.addAll(options.workloads(size, placements)));
        plan(workloads, work);

        // Both clusters start at once; neither is waited for before the other is started.
        Path etcdDir = Files.createDirectories(work.resolve("etcd"));
        Path strataDir = Files.createDirectories(work.resolve("strata"));
        device = BlockDevice.of(work);
        LocalEtcd etcdCluster = LocalEtcd.start(etcd.toAbsolutePath(), etcdDir, etcdFlags, group);
        LocalStrata strataCluster = LocalStrata.start(strata.classpath(), nodeHeap, nodeJavaOptions, strataDir, strataFlags,
                group);
        Duration ready = Duration.ofSeconds(readyTimeoutSeconds);
        etcdCluster.awaitReady(ready);
        strataCluster.awaitReady(ready);
        Provenance provenance = Provenance.of(strata, etcd.toAbsolutePath());
        System.out.printf(Locale.ROOT, "etcd:   %s at %s, pids %s%n", provenance.etcdVersion(), etcdCluster.endpoints(),
                etcdCluster.pids());
        System.out.printf(Locale.ROOT, "strata: %s at %s, pids %s; server jar %s%n", provenance.strataVersion(),
                strataCluster.endpoints(), strataCluster.pids(), provenance.strataServerJar());
        System.out.println("data on: " + device.map(BlockDevice::toString).orElse("no block device found (no device writes)"));
        System.out.printf(Locale.ROOT, "machine: %d cores, %s; driver JVM %s; commit %s%s%n", provenance.machine().cores(),
                provenance.cpuModel(), provenance.machine().jvmVersion(), provenance.commit(),
                Boolean.TRUE.equals(provenance.worktreeModified()) ? " (work tree modified)" : "");
        Map<String, Setup> systems = new LinkedHashMap<>();
        systems.put("strata", new Setup(strataCluster.endpoints(), strataCluster.pids(), strataCluster.jvmFlags(), strataFlags,
                strataCluster.commands()));
        systems.put("etcd", new Setup(etcdCluster.endpoints(), etcdCluster.pids(), null, etcdFlags, etcdCluster.commands()));

        List<Preload> preloads = new ArrayList<>();
        List<RunResult> warmup = new ArrayList<>();
        List<RunResult> runs = new ArrayList<>();
        Map<Integer, Keyspace> keyspaces = new LinkedHashMap<>();
        valueSizes.forEach(size -> keyspaces.put(size, new Keyspace(options.keys, size, options.seed)));
        try (KvTarget s = Targets.STRATA.connect(strataCluster.endpoints(), options.deadline());
             KvTarget e = Targets.ETCD.connect(etcdCluster.endpoints(), options.deadline())) {
            Map<KvTarget, List<Long>> pids = Map.of(s, strataCluster.pids(), e, etcdCluster.pids());
            if (settings.warmupPass()) {
                System.out.printf(Locale.ROOT, "%nWarm-up pass, unmeasured: every workload for %d s on each system, so the "
                        + "JVM's JIT has compiled Strata's (and this driver's) hot paths before the rounds; etcd gets the same "
                        + "pass.%n", options.warmupSeconds);
                Driver quick = new Driver(Duration.ZERO, Duration.ofSeconds(options.warmupSeconds), options.deadline(),
                        Duration.ofSeconds(5));
                pass(0, quick, List.of(s, e), pids, keyspaces, workloads, preloads, warmup);
                warmUntilJitQuiet(s, pids, keyspaces, workloads, preloads, warmup);
            }
            Driver driver = options.driver();
            for (int round = 1; round <= rounds; round++) {
                List<KvTarget> order = round % 2 == 1 ? List.of(s, e) : List.of(e, s);
                System.out.printf(Locale.ROOT, "%nRound %d of %d (%s first)%n", round, rounds, order.getFirst().system());
                pass(round, driver, order, pids, keyspaces, workloads, preloads, runs);
                if (options.json != null) {
                    // After every round, so a run that fails later still leaves what it measured.
                    JsonReport.write(options.json, new Report(startedAt, provenance, settings, systems, preloads, warmup, runs,
                            VersusSummary.of(runs, labels(workloads))));
                }
            }
        }
        VersusSummary summary = VersusSummary.of(runs, labels(workloads));
        VersusTable.print(System.out, summary);
        if (options.json != null) {
            JsonReport.write(options.json, new Report(startedAt, provenance, settings, systems, preloads, warmup, runs, summary));
            System.out.println("wrote " + options.json);
        }
        return 0;
    }

    /**
     * One pass over every workload: per value size, a preload of every key on each system (when
     * a workload reads), then each workload on each system in {@code order}.
     */
    private void pass(int round, Driver driver, List<KvTarget> order, Map<KvTarget, List<Long>> pids,
                      Map<Integer, Keyspace> keyspaces, List<Workload> workloads, List<Preload> preloads, List<RunResult> into)
            throws InterruptedException {
        for (int size : valueSizes) {
            Keyspace keyspace = keyspaces.get(size);
            if (options.reads()) {
                for (KvTarget t : order) {
                    Preload p = Preload.run(t, keyspace, driver, round);
                    preloads.add(p);
                    System.out.printf(Locale.ROOT, "%-6s preload of %d %d-byte values: %.1f s, %d failed %s%n", t.system(),
                            p.keys(), size, p.seconds(), p.failed(), p.failed() > 0 ? p.failures() : "");
                    t.betweenRuns();
                }
            }
            RunTable.header(System.out);
            for (Workload w : workloads) {
                if (w.valueSize() != size) {
                    continue;
                }
                for (KvTarget t : order) {
                    RunResult r = driver.run(t, w, keyspace, pids.get(t), device, round);
                    into.add(r);
                    RunTable.row(System.out, r);
                    t.betweenRuns();
                }
            }
        }
    }

    /**
     * Repeats passes over every workload on Strata alone until its nodes' JIT compilers fall
     * quiet ({@link JitWarmUp}) or {@code --warmup-limit} runs out. etcd, compiled ahead of time,
     * has nothing to warm beyond the first pass; the driver's own code for it warmed there too.
     */
    private void warmUntilJitQuiet(KvTarget strata, Map<KvTarget, List<Long>> pids, Map<Integer, Keyspace> keyspaces,
                                 List<Workload> workloads, List<Preload> preloads, List<RunResult> warmup)
            throws InterruptedException, IOException {
        if (warmupLimitMinutes == 0) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(warmupLimitMinutes);
        Driver window = new Driver(Duration.ZERO, Duration.ofSeconds(Math.max(5, options.warmupSeconds)), options.deadline(),
                Duration.ofSeconds(5));
        List<Long> nodes = pids.get(strata);
        for (int n = 1; System.nanoTime() < deadline; n++) {
            Map<Path, Long> compilerBefore = JitWarmUp.compilerTicks(nodes);
            long start = System.nanoTime();
            List<RunResult> results = new ArrayList<>();
            pass(0, window, List.of(strata), pids, keyspaces, workloads, preloads, results);
            long wall = System.nanoTime() - start;
            Map<Path, Long> compilerAfter = JitWarmUp.compilerTicks(nodes);
            long compiler = JitWarmUp.usedBetween(compilerBefore, compilerAfter);
            warmup.addAll(results);
            boolean quiet = JitWarmUp.quiet(compiler, wall) && !JitWarmUp.anyEnded(compilerBefore, compilerAfter);
            System.out.printf(Locale.ROOT, "warm-up pass %d on strata: its JIT compilers used %.1f s of CPU in %.0f s%s%n", n,
                    compiler / 1e9, wall / 1e9, quiet ? ": quiet, so warm" : "");
            if (quiet) {
                return;
            }
        }
        System.out.printf(Locale.ROOT, "warm-up limit of %d min reached while strata's JIT compilers still worked; the rounds "
                + "may show it warming%n", warmupLimitMinutes);
    }

    private void plan(List<Workload> workloads, Path work) {
        int passes = rounds;
        long seconds = (long) workloads.size() * 2 * rounds * (options.warmupSeconds + options.durationSeconds);
        if (!noWarmupPass && options.warmupSeconds > 0) {
            seconds += (long) workloads.size() * 2 * options.warmupSeconds;
        }
        System.out.printf(Locale.ROOT, "versus-etcd: %d workloads x 2 systems x %d rounds (%d s warm-up + %d s measured each)%s; "
                        + "about %d min of load, plus preloads; data and logs in %s%n", workloads.size(), passes,
                options.warmupSeconds, options.durationSeconds,
                !noWarmupPass && options.warmupSeconds > 0
                        ? ", after a warm-up pass and up to " + warmupLimitMinutes + " min more until strata's JIT is quiet" : "",
                (seconds + 59) / 60, work);
    }

    private static List<String> labels(List<Workload> workloads) {
        return workloads.stream().map(Workload::label).toList();
    }

    private void validate() {
        options.validate(spec);
        if (!Files.isExecutable(etcd)) {
            throw new ParameterException(spec.commandLine(), "--etcd " + etcd + " is not an executable file; build one with "
                    + "bench/etcd/build-etcd.sh DIR");
        }
        if (rounds < 1) {
            throw new ParameterException(spec.commandLine(), "--rounds must be >= 1, was " + rounds);
        }
        if (warmupLimitMinutes < 0) {
            throw new ParameterException(spec.commandLine(), "--warmup-limit must be >= 0, was " + warmupLimitMinutes);
        }
        if (valueSizes.isEmpty() || valueSizes.stream().anyMatch(v -> v < 0 || v > 1 << 20)) {
            throw new ParameterException(spec.commandLine(), "--value-sizes must be in [0, 1MiB] (etcd's default request "
                    + "limit is 1.5 MiB), were " + valueSizes);
        }
        if (placements.isEmpty() || readyTimeoutSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--to needs a value and --ready-timeout must be >= 1");
        }
    }

    /** Stops every process started (by pid) and deletes the temporary directory unless kept; idempotent. */
    private void cleanUp(ProcessGroup group, Path work) {
        group.stopAll();
        if (keep) {
            return;
        }
        try {
            if (Files.exists(work)) {
                FileLinks.deleteTree(work);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + work + ": " + e.getMessage());
        }
    }
}
