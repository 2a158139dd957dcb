package dev.strata.bench.cluster;

import dev.strata.cli.bench.LatencySummary;

import java.util.List;
import java.util.Map;

/**
 * The figures of one measured run of one workload on one system. Which operations count is the
 * loop's rule: closed loop, every operation answered at or after the window's start (the last
 * ones waited for after its end); open loop, every operation due inside the window. Successes
 * and failures are apart everywhere: throughput and the latency percentiles are of successful
 * operations; failures are counted by gRPC status code (plus {@code NOT_SENT},
 * {@code MISSING_KEY} and {@code NO_ANSWER}, see {@link Failures}), with timeouts also given alone.
 *
 * @param round               1-based; 0 for the unmeasured warm-up pass and for the cluster command
 * @param loop                {@code closed} or {@code open}
 * @param endpoints           where the requests went
 * @param seconds             the measured window
 * @param succeeded           successful operations counted: the latency histogram's count
 * @param opsPerSecond        successful operations per second of the window (closed loop: those
 *                            answered inside it, not the last ones waited for after it)
 * @param latencyMicros       of the successful operations: closed loop from sending, open loop from the intended start
 * @param failed              every failure, of any kind
 * @param timedOut            failures with DEADLINE_EXCEEDED
 * @param notSent             open loop: operations due while the in-flight cap was reached
 * @param failures            failures by name
 * @param serverCpuMicrosPerOp the server processes' CPU time (user + system, summed over the
 *                            processes) in the window per successful operation of the window;
 *                            null when unknown
 * @param serverCpuCores      the same CPU time over the window's length: cores kept busy
 * @param driverCpuMicrosPerOp this driver's CPU time per successful operation of the window
 * @param serverWrittenBytesPerOp the bytes the server processes wrote to storage in the window
 *                            (summed over the processes: logs, tables, compactions) per successful
 *                            operation of the window; null when unknown. Pages count each time a
 *                            process makes them dirty, so a page rewritten after every fsync counts
 *                            every time, and a file deleted before write-back counts too
 * @param deviceWrittenBytesPerOp the bytes the servers' block device wrote in the window per
 *                            successful operation of the window ({@link BlockDevice}: what the disk
 *                            saw, every process's); null when unknown
 */
record RunResult(String system, int round, String workload, Op op, int valueSize, Placement to, String loop,
                 Integer concurrency, Double offeredOpsPerSecond, Integer maxInFlight, List<String> endpoints,
                 double seconds, long succeeded, double opsPerSecond, LatencySummary latencyMicros,
                 long failed, long timedOut, long notSent, Map<String, Long> failures,
                 Double serverCpuMicrosPerOp, Double serverCpuCores, Double driverCpuMicrosPerOp,
                 Double serverWrittenBytesPerOp, Double deviceWrittenBytesPerOp) {
}
