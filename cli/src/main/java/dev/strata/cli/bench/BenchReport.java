package dev.strata.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@code strata bench} run measured, with what it ran against: {@link SummaryTable}
 * prints it for people, {@link JsonReport} writes it for scripts. Counts and rates cover the
 * measured run only (not the load or the warm-up). Throughput and latencies are of the
 * operations that succeeded; those that failed (an unknown outcome, such as a timeout, included)
 * are counted apart, by error code. Latencies are in microseconds, each from the operation's
 * start: in an open loop, from when it was due.
 *
 * @param startedAt    when the measured run started, ISO-8601
 * @param mix          each operation's fraction of the workload
 * @param target       the system run against: strata or etcd
 * @param load         the load before the run; null with --no-load
 * @param seconds      the measured run's length
 * @param ok           operations that succeeded, of every type
 * @param opsPerSecond {@code ok / seconds}
 * @param failed       operations that failed, of every type
 * @param operations   the figures of each operation type in the mix
 * @param serverCpu    the server processes' CPU time over the run; null unless --server-pids
 */
public record BenchReport(String startedAt, BenchSettings settings, Map<String, Double> mix, String target,
                          List<String> endpoints,
                          MachineInfo machine, Load load, double seconds, long ok, double opsPerSecond, long failed,
                          List<OpStats> operations, ServerCpu serverCpu) {
    /** The load of the key space before the run. */
    public record Load(long keys, double seconds, double keysPerSecond) {}

    /**
     * One operation type's figures.
     *
     * @param ok           operations that succeeded
     * @param failed       operations that failed
     * @param notFound     of those that succeeded, reads that found no key (reads and read-modify-writes)
     * @param opsPerSecond operations that succeeded, per second
     * @param failures     failed operations by {@code StrataException} code
     */
    public record OpStats(String op, long ok, long failed, long notFound, double opsPerSecond,
                          LatencySummary latencyMicros, Map<String, Long> failures) {}

    static BenchReport of(String startedAt, BenchSettings settings, String target, List<String> endpoints, Load load,
                          PhaseStats.Result run, ServerCpu serverCpu) {
        Map<String, Double> mix = new LinkedHashMap<>();
        List<OpStats> operations = new ArrayList<>();
        Tally t = run.tally();
        for (Map.Entry<OpType, Double> e : settings.mix().fractions().entrySet()) {
            OpType op = e.getKey();
            mix.put(op.label(), e.getValue());
            operations.add(new OpStats(op.label(), t.ok(op), t.failed(op), t.notFound(op),
                    t.ok(op) / run.seconds(), LatencySummary.of(t.latencyNanos(op)), t.failures(op)));
        }
        return new BenchReport(startedAt, settings, mix, target, List.copyOf(endpoints), MachineInfo.current(), load,
                run.seconds(), t.ok(), t.ok() / run.seconds(), t.failed(), operations, serverCpu);
    }
}
