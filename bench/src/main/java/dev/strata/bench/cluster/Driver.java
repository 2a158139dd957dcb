package dev.strata.bench.cluster;

import dev.strata.cli.bench.LatencySummary;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one workload on one system and turns what happened into a {@link RunResult}: finds the
 * route ({@link Routes}), runs the closed or open loop over a warm-up and a measured window, and
 * samples the CPU time of the system's server processes and of this driver, the bytes the
 * servers wrote to storage and the bytes their device wrote, at the window's two ends. The one
 * place both commands measure through, so {@code cluster} and {@code versus-etcd} report the same
 * figures the same way.
 *
 * @param warmup        unmeasured time before each measured window
 * @param duration      the measured window
 * @param deadline      each operation's gRPC deadline
 * @param statusTimeout how long an endpoint may take to say who leads
 */
record Driver(Duration warmup, Duration duration, Duration deadline, Duration statusTimeout) {
    /** How long after its deadline an operation may still answer before it counts as NO_ANSWER. */
    private static final Duration ANSWER_GRACE = Duration.ofSeconds(5);
    /** How long a run waits for a leader (and a follower) to show before it gives up. */
    private static final Duration ROUTE_WAIT = Duration.ofSeconds(30);

    /** How long the loops wait, after the window, for the last answers. */
    Duration drainLimit() {
        return deadline.plus(ANSWER_GRACE);
    }

    /**
     * Measures {@code workload} on {@code target}.
     *
     * @param keyspace   keys and values of the workload's value size
     * @param serverPids the system's server processes, for CPU per operation; empty when unknown
     * @param device     the block device of the servers' data, for its bytes written per operation; empty when unknown
     * @throws IllegalStateException when the route cannot be found (no leader, no follower)
     */
    RunResult run(KvTarget target, Workload workload, Keyspace keyspace, List<Long> serverPids,
                  Optional<BlockDevice> device, int round) throws InterruptedException {
        Route route = route(target, workload.to());
        Issuer issuer = Issuer.of(target, workload.op(), route, keyspace);
        Outcomes outcomes = new Outcomes();
        Window window = Window.of(System.nanoTime(), warmup, duration);
        CompletableFuture<ResourceSample> usage = usageOver(window, serverPids, device);
        if (workload.openLoop()) {
            new OpenLoop(issuer, window, outcomes).run(workload.rate(), workload.maxInFlight(), drainLimit());
        } else {
            new ClosedLoop(issuer, window, Long.MAX_VALUE, workload.concurrency(), outcomes).run(drainLimit());
        }
        ResourceSample used;
        try {
            used = usage.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the resource sampler failed", e.getCause());
        }
        return result(target.system(), round, workload, route, window, outcomes, used);
    }

    /**
     * The route to {@code placement}, asking again for a while when there is none yet (a leader
     * election under way).
     *
     * @throws IllegalStateException when there is still none after {@link #ROUTE_WAIT}
     */
    Route route(KvTarget target, Placement placement) throws InterruptedException {
        long deadline = System.nanoTime() + ROUTE_WAIT.toNanos();
        while (true) {
            try {
                return Routes.resolve(placement, target.members(statusTimeout));
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(target.system() + ": " + e.getMessage(), e);
                }
                Thread.sleep(500);
            }
        }
    }

    private static RunResult result(String system, int round, Workload w, Route route, Window window, Outcomes outcomes,
                                    ResourceSample used) {
        double seconds = window.measuredSeconds();
        long ok = outcomes.successes();
        long inWindow = outcomes.successesInWindow();
        Map<String, Long> failures = outcomes.failureCounts();
        long failed = failures.values().stream().mapToLong(Long::longValue).sum();
        return new RunResult(system, round, w.label(), w.op(), w.valueSize(), w.to(), w.openLoop() ? "open" : "closed",
                w.concurrency(), w.rate(), w.maxInFlight(), route.addresses(), seconds, ok, inWindow / seconds,
                LatencySummary.of(outcomes.latencies()), failed, failures.getOrDefault(Failures.TIMED_OUT, 0L),
                failures.getOrDefault(Failures.NOT_SENT, 0L), failures,
                perOp(used.serverNanos(), inWindow), used.serverNanos() < 0 ? null : used.serverNanos() / 1e9 / seconds,
                perOp(used.driverNanos(), inWindow), bytesPerOp(used.serverWriteBytes(), inWindow),
                bytesPerOp(used.deviceWriteBytes(), inWindow));
    }

    /** Microseconds of CPU per successful operation; null when the CPU time is unknown or nothing succeeded. */
    private static Double perOp(long cpuNanos, long ops) {
        return cpuNanos < 0 || ops == 0 ? null : cpuNanos / 1e3 / ops;
    }

    /** Bytes per successful operation; null when the bytes are unknown or nothing succeeded. */
    private static Double bytesPerOp(long bytes, long ops) {
        return bytes < 0 || ops == 0 ? null : (double) bytes / ops;
    }

    /** Samples CPU time and bytes written at the window's measured start and at its end, on a thread of its own. */
    private static CompletableFuture<ResourceSample> usageOver(Window window, List<Long> serverPids,
                                                              Optional<BlockDevice> device) {
        CompletableFuture<ResourceSample> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("usage-sampler").start(() -> {
            try {
                sleepUntil(window.measureStart());
                ResourceSample before = ResourceSample.now(serverPids, device);
                sleepUntil(window.end());
                result.complete(ResourceSample.now(serverPids, device).minus(before));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static void sleepUntil(long nanoTime) {
        for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
