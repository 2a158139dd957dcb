package dev.strata.bench.cluster;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The driver's flags for {@code versus-etcd} (a picocli mixin). */
final class DriverOptions {
    @Option(names = "--ops", split = ",", paramLabel = "OP,...", hideParamSyntax = true, defaultValue = "put,get,sget",
            converter = OpConverter.class,
            description = "Operations: put, get (linearizable), sget (serializable) (default: ${DEFAULT-VALUE}).")
    List<Op> ops;

    @Option(names = "--concurrency", split = ",", paramLabel = "N,...", hideParamSyntax = true, defaultValue = "1,16,64,256",
            description = "Closed loop: operations in flight, one run per value (default: ${DEFAULT-VALUE}).")
    List<Integer> concurrency;

    @Option(names = "--rate", split = ",", paramLabel = "OPS_PER_S,...", hideParamSyntax = true,
            description = "Open loop instead: operations offered per second, one run per value; latency counts from each "
                    + "operation's intended start. --concurrency is then ignored.")
    List<Double> rates;

    @Option(names = "--max-in-flight", defaultValue = "10000", paramLabel = "N",
            description = "Open loop: most operations unanswered at once; those due beyond it are counted as failed "
                    + "(NOT_SENT) (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(names = "--keys", defaultValue = "10000", paramLabel = "N",
            description = "Distinct keys, bench/000000000000 on; each is written once before the first get "
                    + "(default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--duration", defaultValue = "10", paramLabel = "SECONDS",
            description = "Measured seconds per run (default: ${DEFAULT-VALUE}).")
    int durationSeconds;

    @Option(names = "--warmup", defaultValue = "5", paramLabel = "SECONDS",
            description = "Unmeasured seconds of the same load right before each measured run (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--deadline", defaultValue = "10", paramLabel = "SECONDS",
            description = "gRPC deadline of each operation; one that ends with DEADLINE_EXCEEDED counts as timed out "
                    + "(default: ${DEFAULT-VALUE}).")
    int deadlineSeconds;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "N",
            description = "Seed of keys and values (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write every run, with the settings and the machine, to FILE.")
    Path json;

    /** Checks the flags together. @throws ParameterException naming the bad value */
    void validate(CommandSpec spec) {
        if (ops.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--ops must name at least one operation");
        }
        if (concurrency.isEmpty() || concurrency.stream().anyMatch(c -> c < 1 || c > 100_000)) {
            throw new ParameterException(spec.commandLine(), "--concurrency values must be in [1, 100000], were " + concurrency);
        }
        if (rates != null && (rates.isEmpty() || rates.stream().anyMatch(r -> !(r > 0) || r > 10_000_000))) {
            throw new ParameterException(spec.commandLine(), "--rate values must be in (0, 10000000] ops/s, were " + rates);
        }
        if (maxInFlight < 1 || keys < 1 || durationSeconds < 1 || warmupSeconds < 0 || deadlineSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "need --max-in-flight, --keys, --duration, --deadline >= 1 and "
                    + "--warmup >= 0, were " + maxInFlight + ", " + keys + ", " + durationSeconds + ", " + deadlineSeconds + ", "
                    + warmupSeconds);
        }
    }

    Driver driver() {
        return new Driver(Duration.ofSeconds(warmupSeconds), Duration.ofSeconds(durationSeconds),
                Duration.ofSeconds(deadlineSeconds), Duration.ofSeconds(5));
    }

    Duration deadline() {
        return Duration.ofSeconds(deadlineSeconds);
    }

    /** Whether any operation reads, so the keys must be written first. */
    boolean reads() {
        return ops.stream().anyMatch(Op::isRead);
    }

    /**
     * The workloads of one value size, in the order they run: by operation (as given), then by
     * placement, then by concurrency or rate.
     */
    List<Workload> workloads(int valueSize, List<Placement> placements) {
        List<Workload> list = new ArrayList<>();
        for (Op op : ops) {
            for (Placement to : placements) {
                if (rates != null) {
                    rates.forEach(r -> list.add(Workload.open(op, valueSize, to, r, maxInFlight)));
                } else {
                    concurrency.forEach(c -> list.add(Workload.closed(op, valueSize, to, c)));
                }
            }
        }
        return list;
    }

    /** Reads {@code put}, {@code get} and {@code sget}. */
    static final class OpConverter implements picocli.CommandLine.ITypeConverter<Op> {
        @Override
        public Op convert(String value) {
            for (Op op : Op.values()) {
                if (op.label().equalsIgnoreCase(value.trim())) {
                    return op;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not an operation; use put, get or sget");
        }
    }
}
