package dev.strata.cli.bench;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * A workload run against a cluster, the way {@code strata bench} runs it, YCSB-style: load the key
 * space ({@link #load}), then run --clients workers sharing one {@link Target}, first for the warm-up,
 * unmeasured, then for the measured run ({@link #run}). Each worker has one request in flight:
 * it sends the next as soon as the last is answered (closed loop), or, with a --rate, when the
 * next is due (open loop), so that the workers are only the cap on requests in flight. A
 * progress line goes to {@code progress} while each part runs. Failed operations are counted in
 * the report, never thrown. Not thread-safe: one call at a time.
 */
public final class Benchmark {
    private final Target target;
    private final BenchSettings settings;
    private final KeySpace keys;
    private final PrintWriter progress;
    private final boolean terminal;

    /**
     * @param progress where the progress line goes (stderr)
     * @param terminal whether {@code progress} is a terminal, where the line is redrawn in place
     */
    public Benchmark(Target target, BenchSettings settings, PrintWriter progress, boolean terminal) {
        this.target = target;
        this.settings = settings;
        this.keys = new KeySpace(settings.keyPrefix());
        this.progress = progress;
        this.terminal = terminal;
    }

    /**
     * Writes every key, {@code [0, keys)}, with batched puts.
     *
     * @throws dev.strata.client.StrataException when a batch failed; the load is then incomplete
     */
    public BenchReport.Load load() throws InterruptedException {
        return new Loader(target, settings, keys).load(progress, terminal);
    }

    /**
     * The warm-up, if any, then the measured run.
     *
     * @param load       what {@link #load} returned, or null when the keys were loaded before
     * @param serverPids the cluster's server processes on this machine, whose CPU time the report
     *                   gives per operation; empty for none
     * @throws java.io.UncheckedIOException when a server process's CPU time cannot be read at the start
     * @throws dev.strata.client.StrataException when the target cannot be readied ({@link Target#settle})
     */
    public BenchReport run(BenchReport.Load load, List<Long> serverPids) throws InterruptedException {
        Meter meter = new Meter();
        InsertCounter inserts = new InsertCounter(settings.keys());
        SplittableRandom seeds = new SplittableRandom(settings.seed());
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < settings.clients(); i++) {
            workers.add(new Worker(target, settings, keys, inserts, meter, seeds.split()));
        }
        ExecutorService pool = Threads.pool(settings.clients(), "strata-bench-client");
        try {
            target.settle();
            if (!settings.warmup().isZero()) {
                phase("warmup", PhaseEnd.after(settings.warmup()), workers, pool, meter);
                target.settle();
            }
            String startedAt = Instant.now().toString();
            PhaseEnd end = settings.ops() != null ? PhaseEnd.afterOps(settings.ops()) : PhaseEnd.after(settings.duration());
            long cpuBefore = ServerCpu.totalNanos(serverPids);
            PhaseStats.Result measured = phase("run", end, workers, pool, meter);
            ServerCpu cpu = serverCpu(serverPids, cpuBefore, measured.tally().ok());
            return BenchReport.of(startedAt, settings, target.system(), target.endpoints(), load, measured, cpu);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The servers' CPU over the run, or null when none was asked for or one of them is gone (said on the progress stream). */
    private ServerCpu serverCpu(List<Long> pids, long nanosBefore, long ok) {
        if (pids.isEmpty()) {
            return null;
        }
        try {
            return ServerCpu.of(pids, ServerCpu.totalNanos(pids) - nanosBefore, ok);
        } catch (UncheckedIOException e) {
            progress.println("strata bench: no server CPU figure: " + e.getMessage());
            progress.flush();
            return null;
        }
    }

    /**
     * Runs every worker until {@code end}. Phases do not overlap: the workers' last calls of one
     * finish, and are harvested into it, before the next starts.
     */
    private PhaseStats.Result phase(String label, PhaseEnd end, List<Worker> workers, ExecutorService pool, Meter meter)
            throws InterruptedException {
        PhaseStats stats = new PhaseStats(label, meter);
        Pacer pacer = settings.rate() == null ? null : new Pacer(settings.rate(), System.nanoTime());
        Progress line = Progress.start(progress, terminal, stats::progressLine);
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (Worker w : workers) {
                tasks.add(pool.submit(() -> {
                    try {
                        if (pacer == null) {
                            w.run(end);
                        } else {
                            w.run(end, pacer);
                        }
                    } catch (RuntimeException | Error e) {
                        // Not a failed call (those are counted): a bug. Stop the others and report it.
                        end.halt();
                        throw e;
                    }
                }));
            }
            Threads.awaitAll(tasks);
        } finally {
            line.close();
        }
        return stats.finish();
    }
}
