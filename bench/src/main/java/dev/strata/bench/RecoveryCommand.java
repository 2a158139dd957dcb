package dev.strata.bench;

import dev.strata.cli.DurationConverter;
import dev.strata.cli.bench.MachineInfo;
import dev.strata.client.KeyRange;
import dev.strata.client.KeyValue;
import dev.strata.client.RangeOptions;
import dev.strata.client.StrataClient;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.proto.v1.StatusResponse;
import dev.strata.server.config.ConfigKey;
import dev.strata.server.config.ConfigKeys;
import dev.strata.testkit.cluster.Digest;
import dev.strata.testkit.cluster.ProcessCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * {@code strata-bench recovery}: LogKV's recovery table on a cluster of real server processes
 * ({@link ProcessCluster}, three nodes on loopback). For each size N, a fresh cluster takes puts
 * and deletes through the SDK until a random point in the last fifth of N commands, then every
 * node is killed with SIGKILL while commands are in flight, restarted on its data, and timed
 * until it serves; then every key is read back and checked against the acknowledged commands
 * ({@link GroundTruth}). Last, under steady load, only the leader is killed: time to a new leader
 * and the longest time without a successful command, then the node is restarted and the data
 * checked again.
 */
@Command(name = "recovery", sortOptions = false,
        description = {"Kills every node of a three-process cluster with SIGKILL in the middle of a load of puts and deletes, "
                + "restarts them and measures the recovery time and the data error rate against the acknowledged commands; "
                + "then kills only the leader under load: time to a new leader and the longest client-visible gap."})
final class RecoveryCommand implements Callable<Integer> {
    /** The crash comes after a fraction of a size's commands drawn from [CRASH_FROM, CRASH_TO). */
    private static final double CRASH_FROM = 0.8;
    private static final double CRASH_TO = 1.0;
    private static final int NODES = 3;
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);

    @Spec
    CommandSpec spec;

    @Option(names = "--sizes", split = ",", converter = CountConverter.class, paramLabel = "N,...", hideParamSyntax = true,
            defaultValue = "100k,400k,700k,1M",
            description = "Commands per run, one fresh cluster per size (default: ${DEFAULT-VALUE}); 20k for a quick run.")
    List<Long> sizes;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "N",
            description = "Seed of the commands, keys, values and crash points (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--in-flight", defaultValue = "64", paramLabel = "N",
            description = "Commands in flight at once, through one SDK client's async API (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--value-size", defaultValue = "128", paramLabel = "BYTES", description = "Value size (default: ${DEFAULT-VALUE}).")
    int valueSize;

    @Option(names = "--delete-fraction", defaultValue = "0.2", paramLabel = "FRACTION",
            description = "Share of commands that delete a key holding a value; the others put (default: ${DEFAULT-VALUE}).")
    double deleteFraction;

    @Option(names = "--key-fraction", defaultValue = "0.25", paramLabel = "FRACTION",
            description = "Keys in the key space per command of the size, so keys are written several times "
                    + "(default: ${DEFAULT-VALUE}).")
    double keyFraction;

    @Option(names = "--steady", converter = DurationConverter.class, defaultValue = "20s", paramLabel = "DURATION",
            description = "Leader kill: load before the kill, and again after the new leader shows (default: ${DEFAULT-VALUE}).")
    Duration steady;

    @Option(names = "--node-heap", defaultValue = "1g", paramLabel = "SIZE",
            description = "Each node's -Xms and -Xmx, as bin/strata-server's STRATA_SERVER_HEAP (default: ${DEFAULT-VALUE}).")
    String nodeHeap;

    @Option(names = "--timeout", defaultValue = "600", paramLabel = "SECONDS",
            description = "Longest wait for a leader, a restart, a catch-up or the last commands (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Mixin
    WorkDirectoryOptions workDirectory = new WorkDirectoryOptions();

    @Option(names = "--node-setting", paramLabel = "KEY=VALUE",
            description = "A server configuration key for every node, over the defaults, e.g. strata.raft.election-timeout=500ms; "
                    + "repeatable.")
    Map<String, String> nodeOverrides = new LinkedHashMap<>();

    @Option(names = "--node-java-option", paramLabel = "FLAG",
            description = "A JVM flag for every node and the archive's training, after the benchmark's own (repeatable), e.g. "
                    + "--node-java-option=-XX:TieredStopAtLevel=1. None by default.")
    List<String> nodeJavaOptions = new ArrayList<>();

    @Option(names = "--class-archive", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Nodes map a class-data sharing archive, trained first on a cluster of their own, as bin/strata-server "
                    + "keeps one (default: ${DEFAULT-VALUE}); --no-class-archive measures a node's first start after a build.")
    boolean classArchive;

    @Option(names = "--save-crash", paramLabel = "DIR",
            description = "After every node was killed, save a copy of the cluster's directory (a crash image) to DIR/run<I>-n<SIZE> "
                    + "before restarting it, for --from-crash.")
    Path saveCrash;

    @Option(names = "--from-crash", paramLabel = "IMAGE",
            description = "Skip the load: restart the cluster --restarts times, each from a fresh copy of a crash image saved by "
                    + "--save-crash, and time each restart (--node-setting may differ from the image's run).")
    Path fromCrash;

    @Option(names = "--restarts", defaultValue = "3", paramLabel = "N",
            description = "Restarts from the crash image with --from-crash (default: ${DEFAULT-VALUE}).")
    int restarts;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    private Duration timeout;
    private final ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "recovery-progress");
        t.setDaemon(true);
        return t;
    });

    @Override
    public Integer call() throws Exception {
        validate();
        timeout = Duration.ofSeconds(timeoutSeconds);
        Map<String, String> settings = nodeSettings();
        nodeOverrides.forEach((name, value) -> {
            if (ConfigKeys.byName(name) == null) {
                throw new ParameterException(spec.commandLine(), "--node-setting: unknown configuration key " + name);
            }
            settings.put(name, value);
        });
        // As bin/strata-server runs a node: the heap fixed, G1 aiming at 20 ms pauses (bin/lib/server.sh).
        List<String> jvm = new ArrayList<>(List.of("-Xms" + nodeHeap, "-Xmx" + nodeHeap, "-XX:MaxGCPauseMillis=20"));
        // Before the archive's training: an archive serves only a JVM started with the flags it was made with.
        jvm.addAll(nodeJavaOptions);
        String startedAt = Instant.now().toString();
        System.out.printf(Locale.ROOT, "strata-bench recovery: %d node processes, sizes %s, seed %d, %d in flight, %d-byte values, "
                + "%.0f%% deletes%n", NODES, sizes, seed, inFlight, valueSize, deleteFraction * 100);
        List<RecoveryReport.Run> runs = new ArrayList<>();
        RecoveryReport.Options options;
        try (DbDirectory root = workDirectory.open()) {
            System.out.println("data in " + root.path());
            if (classArchive) {
                System.out.println("training the nodes' class-data archive ...");
                jvm = ServerClassArchive.train(root.path().resolve("class-archive"), settings, jvm, timeout);
            }
            System.out.println("node JVM: " + jvm + "; node settings: " + settings);
            if (fromCrash != null) {
                var results = CrashRestarts.run(fromCrash, root.path(), !root.deleteOnClose(), restarts, settings, jvm, timeout);
                var report = new CrashRestarts.Report(startedAt, MachineInfo.current(), fromCrash.toString(), jvm, settings, results);
                report.print(System.out);
                if (json != null) {
                    JsonReport.write(json, report);
                    System.out.println("JSON report: " + json);
                }
                return 0;
            }
            options = new RecoveryReport.Options(sizes, seed, NODES, inFlight, valueSize, deleteFraction, keyFraction,
                    List.of(CRASH_FROM, CRASH_TO), steady.toMillis() / 1e3, jvm, settings,
                    "SDK defaults: timeout 5 s, 8 attempts, backoff 50 ms to 1 s, cool-down 5 s", root.path().toString());
            for (int i = 0; i < sizes.size(); i++) {
                long size = sizes.get(i);
                // One directory per run: with --dir nothing is deleted, and a repeated size must start empty.
                Path clusterDir = root.path().resolve("run" + (i + 1) + "-n" + size);
                runs.add(run(size, clusterDir, settings, jvm));
                if (root.deleteOnClose()) {
                    FileLinks.deleteTree(clusterDir);
                }
                if (json != null) {
                    // After every size, so a long run that fails later still leaves what it measured.
                    JsonReport.write(json, new RecoveryReport(startedAt, MachineInfo.current(), options, runs));
                }
            }
        } finally {
            progress.shutdownNow();
        }
        new RecoveryReport(startedAt, MachineInfo.current(), options, runs).print(System.out);
        if (json != null) {
            System.out.println("JSON report: " + json);
        }
        return 0;
    }

    private void validate() {
        if (sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 1000 || n > Integer.MAX_VALUE)) {
            throw new ParameterException(spec.commandLine(), "--sizes must each be in [1000, 2^31 - 1], were " + sizes);
        }
        if (restarts < 1) {
            throw new ParameterException(spec.commandLine(), "--restarts must be >= 1, was " + restarts);
        }
        if (fromCrash != null && saveCrash != null) {
            throw new ParameterException(spec.commandLine(), "--from-crash restarts a saved image; it cannot also --save-crash");
        }
        if (saveCrash != null && Files.exists(saveCrash) && !isEmptyDirectory(saveCrash)) {
            // Checked now, not after minutes of load: an image is never written over another.
            throw new ParameterException(spec.commandLine(), "--save-crash needs a new or empty directory; " + saveCrash
                    + " is not");
        }
        if (inFlight < 1 || timeoutSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--in-flight and --timeout must be >= 1, were " + inFlight + ", "
                    + timeoutSeconds);
        }
        if (valueSize < SeqValues.MIN_SIZE || valueSize > 64 << 10) {
            throw new ParameterException(spec.commandLine(), "--value-size must be in [" + SeqValues.MIN_SIZE + ", 65536], was "
                    + valueSize);
        }
        if (!(deleteFraction >= 0 && deleteFraction < 1)) {
            throw new ParameterException(spec.commandLine(), "--delete-fraction must be in [0, 1), was " + deleteFraction);
        }
        if (!(keyFraction > 0 && keyFraction <= 1)) {
            throw new ParameterException(spec.commandLine(), "--key-fraction must be in (0, 1], was " + keyFraction);
        }
        if (!nodeHeap.matches("\\d+[kKmMgG]?")) {
            throw new ParameterException(spec.commandLine(), "--node-heap must be a JVM heap size such as 512m or 1g, was "
                    + nodeHeap);
        }
    }

    /**
     * The server's own defaults for what ProcessCluster sets small for tests (write buffer, block
     * cache, request limits, a checkpoint every 3000 entries, 1 MiB log segments): the benchmark
     * measures the server as it ships. The HTTP port stays 0 so the nodes do not collide.
     */
    private static Map<String, String> nodeSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        for (ConfigKey k : List.of(ConfigKeys.WRITE_BUFFER_SIZE, ConfigKeys.BLOCK_CACHE_SIZE, ConfigKeys.MAX_VALUE_SIZE,
                ConfigKeys.MAX_REQUEST_SIZE, ConfigKeys.SNAPSHOT_ENTRIES, ConfigKeys.SNAPSHOT_BYTES, ConfigKeys.LOG_SEGMENT_SIZE)) {
            settings.put(k.name(), k.defaultValue());
        }
        settings.put(ConfigKeys.HTTP_PORT.name(), "0");
        return settings;
    }

    /** One size on a fresh cluster: load, kill -9 of every node, restart, check, leader kill, check. */
    private RecoveryReport.Run run(long size, Path clusterDir, Map<String, String> settings, List<String> jvm) throws Exception {
        int keys = (int) Math.max(16L * inFlight, Math.round(size * keyFraction));
        // One stream per size, whatever the other sizes: a size reruns alone with the same commands and crash point.
        SplittableRandom random = new SplittableRandom(seed ^ size * 0x9E3779B97F4A7C15L);
        double fraction = CRASH_FROM + (CRASH_TO - CRASH_FROM) * random.nextDouble();
        long crashAt = Math.max(1, (long) (size * fraction));
        double loadBefore = loadAverage();
        GroundTruth truth = new GroundTruth(keys);
        SeqValues values = new SeqValues(seed, valueSize);
        System.out.printf(Locale.ROOT, "%n== %d commands over %d keys; kill -9 of every node after %d (%.3f) ==%n", size, keys,
                crashAt, fraction);
        try (ProcessCluster cluster = ProcessCluster.start(clusterDir, NODES, settings, jvm)) {
            System.out.println("cluster up in " + clusterDir + ", leader " + cluster.awaitLeader(timeout));
            RecoveryReport.Crash crash = loadAndCrash(cluster, truth, values, random, crashAt, fraction, "n" + size);
            System.out.printf(Locale.ROOT, "killed every node after %.1f s of load (%.0f cmd/s; %d in flight); restarting ...%n",
                    crash.loadSeconds(), crash.commandsPerSecond(), crash.inFlightAtCrash());
            if (saveCrash != null) {
                Path image = saveCrash.resolve(clusterDir.getFileName());
                CrashImage.save(cluster, clusterDir, image);
                System.out.println("crash image saved to " + image);
            }
            RecoveryReport.Restart restart = new ClusterRestart(cluster, timeout).run();
            System.out.printf(Locale.ROOT, "serving %.2f s after the restart (leader at %.2f s, every node caught up at %.2f s, "
                            + "up to %d entries replayed)%n", restart.servingSeconds(), restart.leaderSeconds(),
                    restart.caughtUpSeconds(), restart.replayedEntries());
            restart.printCpu(System.out);
            GroundTruth.Verification verification = verify(cluster, truth, values);
            boolean identical = replicasIdentical(cluster);
            System.out.println("check: " + verification + (identical ? "; replicas identical" : "; REPLICAS DIFFER"));
            RecoveryReport.LeaderKill leaderKill = leaderKill(cluster, truth, values, random, "n" + size);
            System.out.printf(Locale.ROOT, "leader %d killed: node %d led %.2f s later; longest gap between successful commands "
                            + "%.2f s; restarted node caught up in %.2f s%n", leaderKill.killed(), leaderKill.newLeader(),
                    leaderKill.newLeaderSeconds(), leaderKill.longestGapSeconds(), leaderKill.restartCaughtUpSeconds());
            GroundTruth.Verification after = verify(cluster, truth, values);
            System.out.println("check after the leader kill: " + after);
            return new RecoveryReport.Run(size, keys, crash, restart, verification, identical, leaderKill, after, loadBefore,
                    loadAverage());
        }
    }

    /** The machine's one-minute load average, or -1 where the JVM cannot tell: the figures mean little without it here. */
    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private StrataClient client(ProcessCluster cluster) {
        return StrataClient.builder().endpoints(cluster.clientAddresses()).build();
    }

    /** Loads until {@code crashAt} commands were issued, then kills every node at once and waits for every answer. */
    private RecoveryReport.Crash loadAndCrash(ProcessCluster cluster, GroundTruth truth, SeqValues values, SplittableRandom random,
                                              long crashAt, double fraction, String label) throws InterruptedException {
        try (StrataClient client = client(cluster)) {
            RecoveryLoad load = new RecoveryLoad(client.async(), truth, values, inFlight, deleteFraction, random);
            long start = System.nanoTime();
            var ticker = progress.scheduleAtFixedRate(() -> printProgress(label, load, start), PROGRESS_EVERY.toMillis(),
                    PROGRESS_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            try {
                load.issue(crashAt);
                long killAt = System.nanoTime();
                long acknowledged = load.counts().acknowledged();
                long inFlightAtCrash = truth.inFlight();
                killAll(cluster);
                load.drain(timeout);
                double seconds = (killAt - start) / 1e9;
                return new RecoveryReport.Crash(fraction, seconds, acknowledged, acknowledged / seconds, inFlightAtCrash,
                        load.counts());
            } finally {
                ticker.cancel(false);
            }
        }
    }

    private static void printProgress(String label, RecoveryLoad load, long start) {
        RecoveryLoad.Counts c = load.counts();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.err.printf(Locale.ROOT, "[%s] %.0f s: %d issued, %d acknowledged (%.0f/s), %d unknown, %d failed%n", label, seconds,
                c.issued(), c.acknowledged(), c.acknowledged() / seconds, c.unknown(), c.notApplied());
    }

    /**
     * SIGKILL to every node at once (one thread per node), and waits for every exit. Unlike a
     * power cut, the page cache survives: what the nodes wrote but did not fsync is read back.
     */
    private static void killAll(ProcessCluster cluster) throws InterruptedException {
        List<Thread> killers = new ArrayList<>();
        for (long id : cluster.memberIds()) {
            killers.add(Thread.ofPlatform().name("kill-" + id).start(() -> cluster.kill9(id)));
        }
        for (Thread t : killers) {
            t.join();
        }
    }

    /** Reads every key back (linearizable, a page at a time) and checks it against the ground truth. */
    private GroundTruth.Verification verify(ProcessCluster cluster, GroundTruth truth, SeqValues values) {
        try (StrataClient client = StrataClient.builder().endpoints(cluster.clientAddresses()).timeout(Duration.ofSeconds(60)).build();
             Stream<KeyValue> all = client.range(KeyRange.prefix(new byte[0]), RangeOptions.defaults())) {
            Iterator<GroundTruth.Observed> observed = all
                    .map(kv -> new GroundTruth.Observed(RecoveryLoad.keyNumber(kv.key()), kv.value())).iterator();
            return truth.verify(observed, values::of);
        }
    }

    private static boolean isEmptyDirectory(Path dir) {
        try (Stream<Path> children = Files.list(dir)) {
            return children.findAny().isEmpty();
        } catch (IOException e) {
            return false; // not a directory, or unreadable: not a place to save into
        }
    }

    /** Whether every node holds the same keys, values and revisions (each read locally). */
    static boolean replicasIdentical(ProcessCluster cluster) {
        List<Digest> digests = cluster.memberIds().stream().map(cluster::digest).toList();
        return digests.stream().distinct().count() == 1;
    }

    /**
     * Kills the leader after {@link #steady} of load, polls the survivors until one leads, loads
     * {@link #steady} more, then restarts the killed node and waits until every node caught up.
     */
    private RecoveryReport.LeaderKill leaderKill(ProcessCluster cluster, GroundTruth truth, SeqValues values,
                                                 SplittableRandom random, String label) throws InterruptedException {
        long leader = cluster.awaitLeader(timeout);
        long oldTerm = status(cluster, leader).getHeader().getRaftTerm();
        List<Long> survivors = cluster.memberIds().stream().filter(id -> id != leader).toList();
        try (StrataClient client = client(cluster)) {
            RecoveryLoad load = new RecoveryLoad(client.async(), truth, values, inFlight, deleteFraction, random);
            AtomicBoolean stop = new AtomicBoolean();
            long start = System.nanoTime();
            load.watchGaps();
            Thread issuer = Thread.ofPlatform().name("leader-kill-load").start(() -> {
                try {
                    load.issueUntil(stop::get);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            var ticker = progress.scheduleAtFixedRate(() -> printProgress(label + " leader kill", load, start),
                    PROGRESS_EVERY.toMillis(), PROGRESS_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            long killAt;
            long newLeaderAt;
            long newLeader;
            long acknowledgedBeforeKill;
            try {
                Thread.sleep(steady.toMillis());
                acknowledgedBeforeKill = load.counts().acknowledged();
                killAt = System.nanoTime();
                cluster.kill9(leader);
                Optional<Long> found;
                while ((found = leaderAmong(cluster, survivors)).isEmpty()) {
                    if (System.nanoTime() - killAt > timeout.toNanos()) {
                        throw new IllegalStateException("no new leader within " + timeout.toSeconds() + " s of killing " + leader);
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                newLeaderAt = System.nanoTime();
                newLeader = found.get();
                Thread.sleep(steady.toMillis());
            } finally {
                stop.set(true);
                issuer.join();
                ticker.cancel(false);
            }
            load.drain(timeout);
            long end = System.nanoTime();
            long[] gap = load.longestGap();
            long newTerm = status(cluster, newLeader).getHeader().getRaftTerm();
            long restartAt = System.nanoTime();
            cluster.startNode(leader);
            cluster.awaitCaughtUp(timeout);
            double restartSeconds = (System.nanoTime() - restartAt) / 1e9;
            return new RecoveryReport.LeaderKill(leader, newLeader, oldTerm, newTerm, (newLeaderAt - killAt) / 1e9, gap[0] / 1e9,
                    (gap[1] - killAt) / 1e9, acknowledgedBeforeKill / ((killAt - start) / 1e9), (end - start) / 1e9, load.counts(),
                    restartSeconds);
        }
    }

    private static Optional<Long> leaderAmong(ProcessCluster cluster, List<Long> ids) {
        for (long id : ids) {
            if (cluster.status(id).map(s -> s.getRole() == StatusResponse.Role.LEADER).orElse(false)) {
                return Optional.of(id);
            }
        }
        return Optional.empty();
    }

    private static StatusResponse status(ProcessCluster cluster, long id) {
        return cluster.status(id).orElseThrow(() -> new IllegalStateException("node " + id + " does not answer Status"));
    }
}
