package dev.strata.it.torture;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.strata.it.nemesis.Nemeses;
import dev.strata.it.nemesis.Nemesis;
import dev.strata.server.config.ConfigKeys;
import dev.strata.server.config.ServerConfig;
import dev.strata.testkit.FileTrees;
import dev.strata.testkit.cluster.ProcessCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code strata-torture}: the long fault-injection soak. Runs randomized {@link TortureRun}s
 * (random compositions of nemeses, random seeds derived from {@code --seed}) on clusters of real
 * processes until {@code --duration} has passed, alternating cluster sizes and replacing the
 * cluster every few runs; keeps the histories of failed runs, deletes the others; prints a
 * summary table and writes it as JSON. Exit status 0 when every run passed and every cluster
 * started, 1 otherwise.
 */
@Command(name = "strata-torture", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs randomized fault-injection runs against real Strata processes and checks every history.")
public final class Torture implements Callable<Integer> {
    @Option(names = "--duration", defaultValue = "10m", converter = DurationConverter.class,
            description = "How long to keep starting runs (e.g. 10m, 1h). Default: ${DEFAULT-VALUE}.")
    Duration duration;

    @Option(names = "--nemesis", defaultValue = "all", split = ",",
            description = "Nemeses to draw from, comma separated, or all. Known: ${COMPLETION-CANDIDATES}.",
            completionCandidates = NemesisNames.class)
    List<String> nemeses;

    @Option(names = "--seed", description = "Seed of the whole soak (default: random; printed so a soak can be repeated).")
    Long seed;

    @Option(names = "--nodes", defaultValue = "3,5", split = ",", description = "Cluster sizes to alternate. Default: ${DEFAULT-VALUE}.")
    List<Integer> sizes;

    @Option(names = "--compression", defaultValue = "default,adaptive", split = ",",
            description = "Engine compression policies (strata.engine.compression) to alternate between clusters, unless "
                    + "--set gives one. Default: ${DEFAULT-VALUE}.")
    List<String> compressions;

    @Option(names = "--run-traffic", defaultValue = "10s", converter = DurationConverter.class,
            description = "Traffic time of one run; faults cycle within it. Default: ${DEFAULT-VALUE}.")
    Duration runTraffic;

    @Option(names = "--runs-per-cluster", defaultValue = "20", description = "Runs before the cluster is replaced. Default: ${DEFAULT-VALUE}.")
    int runsPerCluster;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "A server configuration key for every node, e.g. --set strata.raft.read.leader-lease=true (repeatable).")
    Map<String, String> serverConfig = new LinkedHashMap<>();

    @Option(names = "--out", defaultValue = "torture-out", description = "Directory for data, logs, failed histories and summary.json.")
    Path out;

    static final class NemesisNames extends ArrayList<String> {
        NemesisNames() {
            super(Nemeses.names());
        }
    }

    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase();
            long n = Long.parseLong(v.replaceAll("[a-z]+$", ""));
            return switch (v.replaceAll("^[0-9]+", "")) {
                case "ms" -> Duration.ofMillis(n);
                case "s", "" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> throw new CommandLine.TypeConversionException("not a duration: " + value + " (use e.g. 30s, 10m, 1h)");
            };
        }
    }

    public static void main(String[] args) {
        // Interrupted (Ctrl-C, SIGTERM), the soak must not leave its node processes running.
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly), "strata-torture-stop-nodes"));
        System.exit(new CommandLine(new Torture()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<String> allowed = nemeses.equals(List.of("all")) ? Nemeses.names() : nemeses;
        allowed.forEach(Nemeses::named); // an unknown name fails here, before any cluster starts
        long soakSeed = seed != null ? seed : new Random().nextLong();
        Random random = new Random(soakSeed);
        Files.createDirectories(out);
        PrintWriter console = new PrintWriter(System.out, true);
        serverConfig.keySet().forEach(name -> {
            if (ConfigKeys.byName(name) == null) {
                throw new CommandLine.ParameterException(new CommandLine(this), "unknown server configuration key " + name);
            }
        });
        // The server's own parser, so the soak accepts exactly the names a node does.
        compressions.forEach(policy -> {
            try {
                ServerConfig.compressionPolicy("--compression", policy);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
            }
        });
        console.printf("strata-torture: seed %d, %s, nemeses %s, cluster sizes %s%s; output in %s%n", soakSeed, duration,
                String.join(",", allowed), sizes, serverConfig.isEmpty() ? "" : ", server config " + serverConfig, out.toAbsolutePath());

        Summary total = new Summary();
        Map<String, Summary> byNemesis = new TreeMap<>();
        long deadline = System.nanoTime() + duration.toNanos();
        int run = 0;
        int clusterNumber = 0;
        int clusterStartFailures = 0;
        int clustersNotStarted = 0;
        while (System.nanoTime() < deadline) {
            int size = sizes.get(clusterNumber % sizes.size());
            Map<String, String> clusterConfig = new LinkedHashMap<>(serverConfig);
            clusterConfig.putIfAbsent(ConfigKeys.ENGINE_COMPRESSION.name(), compressions.get(clusterNumber % compressions.size()));
            Path clusterDir = out.resolve("cluster-" + clusterNumber++);
            boolean clean = true;
            ProcessCluster started;
            try {
                started = ProcessCluster.start(clusterDir, size, clusterConfig);
            } catch (RuntimeException e) {
                // A cluster that cannot form is a finding too, but not a run: count it, keep its logs, go on.
                clusterStartFailures++;
                clustersNotStarted++;
                console.printf("cluster %s (%d nodes) did not start: %s%n", clusterDir, size, e.getMessage());
                if (clusterStartFailures >= 3) {
                    console.println("three clusters in a row did not start; stopping");
                    break;
                }
                continue;
            }
            clusterStartFailures = 0;
            try (ProcessCluster cluster = started) {
                for (int i = 0; i < runsPerCluster && System.nanoTime() < deadline; i++) {
                    run++;
                    long runSeed = random.nextLong();
                    Nemesis nemesis = Nemeses.random(allowed, random);
                    Path history = out.resolve("history-" + run + "-" + nemesis.name() + ".json");
                    RunResult r;
                    try {
                        r = new TortureRun(cluster, nemesis, runSeed, settings(), history).run();
                    } catch (RuntimeException e) {
                        // The harness itself failed mid-run: a failed run with the evidence, on a fresh cluster next.
                        clean = false;
                        total.aborted();
                        byNemesis.computeIfAbsent(size + " nodes, " + nemesis.name(), k -> new Summary()).aborted();
                        console.printf("run %d (%d nodes, %s, seed %d): FAILED, the run itself stopped on%n", run, size,
                                nemesis.name(), runSeed);
                        e.printStackTrace(console);
                        break;
                    }
                    total.add(r);
                    byNemesis.computeIfAbsent(size + " nodes, " + nemesis.name(), k -> new Summary()).add(r);
                    console.printf("run %d (%d nodes, %s, %s compression, seed %d): %s, %d ops, %d faults, %d unknown, "
                                    + "max unavailable %d ms%n",
                            run, size, nemesis.name(), clusterConfig.get(ConfigKeys.ENGINE_COMPRESSION.name()), runSeed,
                            r.passed() ? "ok" : "FAILED", r.operations(), r.faultsInjected(), r.unknown(), r.maxUnavailableMillis());
                    if (r.passed()) {
                        Files.deleteIfExists(history);
                    } else {
                        clean = false;
                        console.println(r.explanation());
                        if (!r.problems().isEmpty()) {
                            break; // the cluster may be broken: continue on a fresh one
                        }
                    }
                }
            }
            if (clean) {
                FileTrees.delete(clusterDir); // the data and logs of a cluster whose runs all passed are not worth the disk
            }
        }
        console.println();
        console.print(table(total, byNemesis));
        if (clustersNotStarted > 0) {
            console.printf("clusters that did not start: %d (their logs are in %s)%n", clustersNotStarted, out);
        }
        console.flush();
        writeJson(soakSeed, allowed, total, byNemesis, clustersNotStarted);
        // A cluster that cannot form fails the soak as a failed run does: either is a finding.
        return total.failedRuns == 0 && clustersNotStarted == 0 ? 0 : 1;
    }

    private TortureRun.Settings settings() {
        return new TortureRun.Settings(runTraffic, 4, 6, Duration.ofSeconds(3), Duration.ofSeconds(2));
    }

    /** Totals over runs. */
    static final class Summary {
        int runs;
        int failedRuns;
        long operations;
        long faults;
        long anomalies;
        long lostWrites;
        long maxUnavailableMillis;

        /** A run that ended on an exception of its own, with no result to count. */
        void aborted() {
            runs++;
            failedRuns++;
        }

        void add(RunResult r) {
            runs++;
            failedRuns += r.passed() ? 0 : 1;
            operations += r.operations();
            faults += r.faultsInjected();
            anomalies += r.anomalies();
            lostWrites += Math.max(0, r.lostWrites());
            maxUnavailableMillis = Math.max(maxUnavailableMillis, r.maxUnavailableMillis());
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("runs", runs);
            m.put("failed_runs", failedRuns);
            m.put("operations", operations);
            m.put("faults_injected", faults);
            m.put("anomalies", anomalies);
            m.put("acknowledged_writes_lost", lostWrites);
            m.put("max_unavailability_ms", maxUnavailableMillis);
            return m;
        }
    }

    static String table(Summary total, Map<String, Summary> byNemesis) {
        StringBuilder b = new StringBuilder();
        String format = "%-44s %6s %6s %10s %8s %10s %10s %16s%n";
        b.append(String.format(format, "nemesis", "runs", "failed", "operations", "faults", "anomalies", "lost acks",
                "max unavail. ms"));
        byNemesis.forEach((name, s) -> b.append(row(format, name, s)));
        b.append(row(format, "total", total));
        return b.toString();
    }

    private static String row(String format, String name, Summary s) {
        return String.format(format, name, s.runs, s.failedRuns, s.operations, s.faults, s.anomalies, s.lostWrites,
                s.maxUnavailableMillis);
    }

    private void writeJson(long soakSeed, List<String> allowed, Summary total, Map<String, Summary> byNemesis,
                           int clustersNotStarted) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("seed", soakSeed);
        json.put("finished", Instant.now().toString());
        json.put("duration_s", duration.toSeconds());
        json.put("nemeses", allowed);
        json.put("cluster_sizes", sizes);
        json.put("server_config", serverConfig);
        json.put("total", total.json());
        json.put("clusters_not_started", clustersNotStarted);
        Map<String, Object> per = new LinkedHashMap<>();
        byNemesis.forEach((k, v) -> per.put(k, v.json()));
        json.put("by_nemesis", per);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("summary.json").toFile(), json);
    }
}
