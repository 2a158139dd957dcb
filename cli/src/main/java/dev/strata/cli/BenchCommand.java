package dev.strata.cli;

import dev.strata.cli.bench.BenchReport;
import dev.strata.cli.bench.BenchSettings;
import dev.strata.cli.bench.Benchmark;
import dev.strata.cli.bench.Distribution;
import dev.strata.cli.bench.EtcdTarget;
import dev.strata.cli.bench.JsonReport;
import dev.strata.cli.bench.ServerCpu;
import dev.strata.cli.bench.StrataTarget;
import dev.strata.cli.bench.SummaryTable;
import dev.strata.cli.bench.Target;
import dev.strata.cli.bench.Workload;
import dev.strata.client.Consistency;
import dev.strata.client.StrataException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code strata bench}: runs a YCSB core workload or LogKV's against a running cluster, Strata
 * through the SDK or etcd through its gRPC KV API ({@code --target etcd}), and reports throughput
 * and latency percentiles per operation type. Failed operations are counted, not fatal, so a run
 * can go on through a failover. Exit codes: 0 the run completed, 1 the cluster could not be
 * reached, the load failed or etcd could not compact its history, 2 bad usage.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a workload against the cluster and measures it: YCSB's core workloads A-F, or LogKV's. "
                + "With --target etcd, the same workload against an etcd cluster through etcd's own gRPC API.",
                "Loads the keys first with batched puts (skip with --no-load), then runs --clients threads, each with one "
                        + "request in flight, for --duration or --ops: a closed loop, or an open loop at a fixed --rate. A progress "
                        + "line goes to stderr; the summary (or JSON with -o json) to stdout. Throughput and latencies are of "
                        + "the operations that succeeded; failed ones are counted apart by error code, not fatal."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:the run completed", "1:the cluster could not be reached, the load failed, or etcd could not "
                + "compact its history", "2:bad usage"})
public final class BenchCommand implements Callable<Integer> {
    private static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);
    /** The three members bench/etcd/etcd-cluster.sh starts. */
    static final String ETCD_LOCAL_ENDPOINTS = "127.0.0.1:2379,127.0.0.1:22379,127.0.0.1:32379";

    /** The systems {@code --target} names. */
    enum TargetSystem { strata, etcd }

    @Spec
    CommandSpec spec;

    @Mixin
    ClientOptions client;

    @Option(names = "--target", paramLabel = "SYSTEM", defaultValue = "strata",
            description = "the system the endpoints belong to: strata, or etcd (plaintext, its gRPC KV API, requests "
                    + "round-robin over the endpoints as etcd's client sends them; --endpoints defaults to "
                    + "bench/etcd/etcd-cluster.sh's " + ETCD_LOCAL_ENDPOINTS + ") (default: ${DEFAULT-VALUE})")
    TargetSystem target;

    @Option(names = "--workload", paramLabel = "NAME", defaultValue = "a",
            description = "a (50%% read, 50%% update), b (95%% read, 5%% update), c (read only), d (95%% read, 5%% "
                    + "insert, latest), e (95%% scan, 5%% insert), f (50%% read, 50%% read-modify-write), or logkv "
                    + "(reads at --read-fraction, updates, hot keys) (default: ${DEFAULT-VALUE})")
    Workload workload;

    @Option(names = "--distribution", paramLabel = "NAME",
            description = "how keys are chosen: ${COMPLETION-CANDIDATES} (default: the workload's: latest for d, hotspot "
                    + "for logkv, zipfian for the others)")
    Distribution distribution;

    @Option(names = "--keys", paramLabel = "N", defaultValue = "100000",
            description = "keys loaded and chosen from (default: ${DEFAULT-VALUE})")
    long keys;

    @Option(names = "--value-size", paramLabel = "BYTES", defaultValue = "1KiB", converter = ByteSizeConverter.class,
            description = "bytes per value: 100, 4KiB, 1m (default: ${DEFAULT-VALUE})")
    long valueSize;

    @Option(names = "--compressibility", paramLabel = "FRACTION", defaultValue = "0.5",
            description = "fraction of each value that compresses away (default: ${DEFAULT-VALUE})")
    double compressibility;

    @Option(names = "--clients", paramLabel = "N", defaultValue = "16",
            description = "client threads, each with one request in flight, sharing one client "
                    + "(default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--rate", paramLabel = "OPS",
            description = "open loop: offer OPS operations per second over all clients, each timed from when it was due, "
                    + "so a stall shows in the latencies; --clients caps the requests in flight (default: closed loop, "
                    + "each client sends its next request when the last is answered)")
    Double rate;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "length of the measured run: 30s, 5m (default: 30s unless --ops)")
    Duration duration;

    @Option(names = "--ops", paramLabel = "N", description = "operations in the measured run, instead of --duration")
    Long ops;

    @Option(names = "--warmup", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "an unmeasured run first: 10s (default: none)")
    Duration warmup;

    @Option(names = "--consistency", paramLabel = "LEVEL", defaultValue = "linearizable",
            converter = ConsistencyConverter.class, completionCandidates = ConsistencyConverter.Candidates.class,
            description = "of reads and scans: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    Consistency consistency;

    @Option(names = "--read-fraction", paramLabel = "FRACTION", defaultValue = "0.8",
            description = "logkv: the fraction of operations that are reads, the rest updates (default: ${DEFAULT-VALUE})")
    double readFraction;

    @Option(names = "--hit-rate", paramLabel = "FRACTION", defaultValue = "1.0",
            description = "the fraction of reads that ask for keys that exist; the others ask for keys never written "
                    + "(default: ${DEFAULT-VALUE})")
    double hitRate;

    @Option(names = "--hot-fraction", paramLabel = "FRACTION", defaultValue = "0.2",
            description = "hotspot: the fraction of the keys that are hot (default: ${DEFAULT-VALUE})")
    double hotFraction;

    @Option(names = "--hot-rate", paramLabel = "FRACTION", defaultValue = "0.6",
            description = "hotspot: the fraction of accesses that go to hot keys (default: ${DEFAULT-VALUE})")
    double hotRate;

    @Option(names = "--max-scan-length", paramLabel = "N", defaultValue = "100",
            description = "a scan reads 1 to N keys, uniformly (default: ${DEFAULT-VALUE})")
    int maxScanLength;

    @Option(names = "--load", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "write every key before the run; --no-load when they are there from an earlier run "
                    + "(default: load)")
    boolean load;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "seed of the keys, operations and values drawn (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--key-prefix", paramLabel = "PREFIX", defaultValue = "bench/",
            description = "what every key starts with (default: ${DEFAULT-VALUE})")
    String keyPrefix;

    @Option(names = "--server-pids", split = ",", paramLabel = "PID", hideParamSyntax = true,
            description = "process ids of the cluster's servers on this machine (Linux): the report adds their CPU time "
                    + "per operation over the measured run")
    List<Long> serverPids = List.of();

    @Option(names = "--json", paramLabel = "FILE", description = "also write the report as JSON to FILE")
    Path json;

    @Override
    public Integer call() throws Exception {
        BenchSettings settings = settings();
        checkServerPids();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        BenchReport report;
        try (Target t = connect()) {
            try {
                t.checkReachable();
            } catch (StrataException e) {
                err.println("strata bench: cannot reach the " + t.system() + " cluster at " + String.join(",", t.endpoints())
                        + ": " + e.getMessage());
                return 1;
            }
            Benchmark benchmark = new Benchmark(t, settings, err, System.console() != null);
            BenchReport.Load loaded = null;
            if (settings.load()) {
                try {
                    loaded = benchmark.load();
                } catch (StrataException e) {
                    err.println("strata bench: the load failed: " + e.getMessage());
                    return 1;
                }
            }
            try {
                report = benchmark.run(loaded, serverPids);
            } catch (StrataException e) {
                err.println("strata bench: " + e.getMessage());
                return 1;
            }
        }
        if (client.json()) {
            JsonReport.write(out, report);
        } else {
            SummaryTable.print(report, out);
        }
        if (json != null) {
            JsonReport.write(json, report);
            err.println("strata bench: wrote " + json);
        }
        return 0;
    }

    /** Every --server-pids process must be there to be measured: a usage error otherwise. */
    private void checkServerPids() {
        try {
            ServerCpu.totalNanos(serverPids);
        } catch (UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "--server-pids: " + e.getMessage(), e);
        }
    }

    /** The target the flags name; TLS is Strata's alone, a usage error with etcd. */
    private Target connect() {
        if (target == TargetSystem.strata) {
            return new StrataTarget(client.connectForLoad(), client.endpoints);
        }
        if (client.tls.enabled()) {
            throw new ParameterException(spec.commandLine(), "--target etcd speaks plaintext: drop --tls, --cacert, --cert "
                    + "and --key");
        }
        boolean given = spec.commandLine().getParseResult().hasMatchedOption("--endpoints");
        return new EtcdTarget(given ? client.endpoints : List.of(ETCD_LOCAL_ENDPOINTS.split(",")), client.timeout);
    }

    /** The flags as settings; a bad value is a usage error (exit code 2) naming the flag. */
    private BenchSettings settings() {
        try {
            return new BenchSettings(workload, distribution != null ? distribution : workload.defaultDistribution(), keys,
                    valueSize, compressibility, clients, rate, duration == null && ops == null ? DEFAULT_DURATION : duration,
                    ops, warmup != null ? warmup : Duration.ZERO, consistency, readFraction, hitRate, hotFraction, hotRate,
                    maxScanLength, keyPrefix, seed, load);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
