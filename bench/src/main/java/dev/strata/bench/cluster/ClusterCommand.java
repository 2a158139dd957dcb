package dev.strata.bench.cluster;

import dev.strata.bench.JsonReport;
import dev.strata.cli.bench.MachineInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code strata-bench cluster}: the driver against a cluster someone else started, Strata
 * ({@code bin/strata-dev}) or etcd ({@code bench/etcd/etcd-cluster.sh}), one workload after
 * another. With {@code --pids} of the server processes it also reports their CPU time per
 * operation.
 */
@Command(name = "cluster", sortOptions = false,
        description = {"Measures put, linearizable get and serializable get against a running Strata or etcd cluster, "
                + "closed loop (--concurrency) or open loop (--rate), through each system's own gRPC API.",
                "Start Strata with bin/strata-dev, etcd with bench/etcd/etcd-cluster.sh. Failed and timed-out operations "
                        + "are counted apart from successful ones in every figure."})
public final class ClusterCommand implements Callable<Integer> {
    private static final List<String> STRATA_DEV = List.of("127.0.0.1:7100", "127.0.0.1:7110", "127.0.0.1:7120");
    private static final List<String> ETCD_LOCAL = List.of("127.0.0.1:2379", "127.0.0.1:22379", "127.0.0.1:32379");

    @Spec
    CommandSpec spec;

    @Option(names = "--target", defaultValue = "strata", paramLabel = "strata|etcd",
            description = "The system the endpoints belong to (default: ${DEFAULT-VALUE}).")
    String system;

    @Option(names = "--endpoints", split = ",", paramLabel = "HOST:PORT,...", hideParamSyntax = true,
            description = "gRPC addresses of the members (default: bin/strata-dev's 127.0.0.1:7100,7110,7120 for strata, "
                    + "etcd-cluster.sh's 127.0.0.1:2379,22379,32379 for etcd).")
    List<String> endpoints;

    @Option(names = "--to", split = ",", paramLabel = "leader|follower|all,...", hideParamSyntax = true, defaultValue = "all",
            description = "Where requests go: the leader, one follower, or round-robin over all endpoints; one run per value "
                    + "(default: ${DEFAULT-VALUE}).")
    List<Placement> placements;

    @Option(names = "--value-size", defaultValue = "256", paramLabel = "BYTES",
            description = "Value size (default: ${DEFAULT-VALUE}).")
    int valueSize;

    @Option(names = "--pids", split = ",", paramLabel = "PID,...", hideParamSyntax = true,
            description = "Process ids of the cluster's servers (on this machine), for their CPU time per operation.")
    List<Long> pids = List.of();

    @Mixin
    DriverOptions options;

    /** Everything one invocation measured, with what it ran against. */
    record Report(String startedAt, MachineInfo machine, String system, List<String> endpoints, List<Long> pids, int valueSize,
                  int keys, int durationSeconds, int warmupSeconds, int deadlineSeconds, long seed, Preload preload,
                  List<RunResult> runs) {}

    @Override
    public Integer call() throws Exception {
        options.validate(spec);
        if (valueSize < 0 || valueSize > 16 << 20) {
            throw new ParameterException(spec.commandLine(), "--value-size must be in [0, 16MiB], was " + valueSize);
        }
        Targets kind = Targets.named(system, spec);
        List<String> eps = endpoints != null ? endpoints : kind == Targets.STRATA ? STRATA_DEV : ETCD_LOCAL;
        String startedAt = Instant.now().toString();
        Driver driver = options.driver();
        Keyspace keyspace = new Keyspace(options.keys, valueSize, options.seed);
        List<RunResult> runs = new ArrayList<>();
        Preload preload = null;
        try (KvTarget target = kind.connect(eps, options.deadline())) {
            System.out.printf(Locale.ROOT, "%s at %s; %d-byte values, %d keys; %d s measured after %d s warm-up per run; "
                    + "deadline %d s%n", target.system(), eps, valueSize, options.keys, options.durationSeconds,
                    options.warmupSeconds, options.deadlineSeconds);
            System.out.println("members: " + target.members(Duration.ofSeconds(5)));
            if (options.reads()) {
                preload = Preload.run(target, keyspace, driver, 0);
                System.out.printf(Locale.ROOT, "preload: %d keys written in %.1f s, %d failed %s%n", preload.keys(),
                        preload.seconds(), preload.failed(), preload.failed() > 0 ? preload.failures() : "");
                target.betweenRuns();
            }
            RunTable.header(System.out);
            for (Workload w : options.workloads(valueSize, placements)) {
                RunResult r = driver.run(target, w, keyspace, pids, Optional.empty(), 0);
                runs.add(r);
                RunTable.row(System.out, r);
                target.betweenRuns();
            }
        }
        if (options.json != null) {
            JsonReport.write(options.json, new Report(startedAt, MachineInfo.current(), kind.label(), eps, pids, valueSize,
                    options.keys, options.durationSeconds, options.warmupSeconds, options.deadlineSeconds, options.seed,
                    preload, runs));
            System.out.println("wrote " + options.json);
        }
        return 0;
    }
}
