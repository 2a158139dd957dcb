package dev.strata.bench;

import dev.strata.cli.bench.LatencySummary;
import dev.strata.cli.bench.ValueGenerator;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the {@link Benchmark}s of a {@link Workload} on one target, one after another on the
 * same data, as db_bench does.
 *
 * <p>Each op is timed alone with {@link System#nanoTime()} into a histogram owned by its thread
 * (no sharing, no atomics on the hot path), and keys and values are made before the clock
 * starts, so the latencies are those of the engine calls. Throughput is wall time over all ops,
 * making keys and values included, as in db_bench. The histograms are merged when the threads end.
 *
 * <p>After a benchmark that changes storage it can wait for the engine's background work to
 * settle (timed on its own), so the next benchmark starts on a settled engine and the bytes
 * written and the disk use include the flushes, compactions and garbage collection the
 * benchmark caused. CPU time and bytes written are the process's, from the operating system.
 *
 * <p>Not thread-safe: one benchmark at a time.
 */
final class BenchmarkRunner {
    /** The writer beside readwhilewriting's reads looks at whether they ended at least this often. */
    private static final long MAX_WRITER_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private final BenchTarget target;
    private final Path dir;
    private final Workload workload;
    private final boolean settle;
    /** Splits off each thread's random source in a fixed order, so a seed replays a run. */
    private final SplittableRandom seeds;
    /** Null when the key space is too large to track. */
    private final WrittenKeys writtenKeys;

    /**
     * @param dir    the target's database directory, measured after benchmarks that change storage
     * @param settle wait for background work after benchmarks that change storage
     */
    BenchmarkRunner(BenchTarget target, Path dir, Workload workload, boolean settle) {
        this.target = target;
        this.dir = dir;
        this.workload = workload;
        this.settle = settle;
        this.seeds = new SplittableRandom(workload.seed());
        this.writtenKeys = workload.num() <= WrittenKeys.MAX_KEYS ? new WrittenKeys(workload.num()) : null;
    }

    BenchmarkResult run(Benchmark benchmark) throws InterruptedException {
        long num = workload.num();
        long reads = workload.reads();
        long overwrites = Math.multiplyExact(num, workload.overwriteRounds());
        ProcessCounters before = ProcessCounters.now();
        Measured measured = switch (benchmark) {
            case FILLSEQ -> inThreads((share, random, meter) -> fillSequential(share.of(num), random, meter));
            case FILLRANDOM -> inThreads((share, random, meter) -> fillRandom(share.of(num), random, meter));
            case OVERWRITE -> inThreads((share, random, meter) -> fillRandom(share.of(overwrites), random, meter));
            case READRANDOM -> inThreads((share, random, meter) -> readRandom(share.of(reads), random, meter));
            case READSEQ -> inThreads((share, random, meter) -> readSequential(meter));
            case SEEKRANDOM -> inThreads((share, random, meter) -> seekRandom(share.of(reads), random, meter));
            case READWHILEWRITING -> readWhileWriting(reads);
            case FLUSH -> once(target::flush);
            case COMPACT -> once(target::compact);
        };
        Double settleSeconds = null;
        if (settle && benchmark.changesStorage()) {
            long start = System.nanoTime();
            target.waitForBackgroundWork();
            settleSeconds = (System.nanoTime() - start) / 1e9;
        }
        ProcessCounters used = ProcessCounters.now().minus(before);
        boolean countsFound = benchmark == Benchmark.READRANDOM || benchmark == Benchmark.SEEKRANDOM
                || benchmark == Benchmark.READWHILEWRITING;
        Meter total = measured.total();
        Meter writes = measured.writesBeside();
        long userBytesWritten = benchmark.wholeDatabase() ? 0 : writes != null ? writes.bytes : total.bytes;
        StorageStats storage = benchmark.changesStorage() ? target.stats() : null;
        DiskUse disk = storage == null ? null : new DiskUse(userBytesWritten,
                used.bytesWritten(), used.storageBytesWritten(), DbDirectory.sizeOf(dir), storage.liveBytes(),
                writtenKeys == null ? -1 : writtenKeys.count() * (Keys.SIZE + (long) workload.valueSize()));
        return new BenchmarkResult(benchmark.label(), measured.threads(), total.ops, countsFound ? total.found : null,
                total.bytes, measured.seconds(), LatencySummary.of(total.latency), settleSeconds,
                used.cpuNanos() / 1e9, disk, storage, writes == null ? null : writes.ops);
    }

    private void fillSequential(Range keys, SplittableRandom random, Meter meter) {
        ValueGenerator values = newValueGenerator(random);
        for (long i = keys.first(); i < keys.end(); i++) {
            put(i, values.next(), meter);
        }
    }

    private void fillRandom(Range ops, SplittableRandom random, Meter meter) {
        ValueGenerator values = newValueGenerator(random);
        for (long i = 0; i < ops.count(); i++) {
            put(random.nextLong(workload.num()), values.next(), meter);
        }
    }

    private ValueGenerator newValueGenerator(SplittableRandom random) {
        return new ValueGenerator(random.nextLong(), workload.valueSize(), workload.compressibility());
    }

    private void put(long number, byte[] value, Meter meter) {
        byte[] key = Keys.of(number);
        long start = System.nanoTime();
        target.put(key, value);
        meter.record(start, key.length + value.length);
        if (writtenKeys != null) {
            writtenKeys.add(number);
        }
    }

    private void readRandom(Range ops, SplittableRandom random, Meter meter) {
        for (long i = 0; i < ops.count(); i++) {
            byte[] key = Keys.of(random.nextLong(workload.num()));
            long start = System.nanoTime();
            byte[] value = target.get(key);
            if (value != null) {
                meter.record(start, key.length + value.length);
                meter.found++;
            } else {
                meter.record(start, 0);
            }
        }
    }

    /**
     * Readrandom in {@link Workload#threads()} threads while one more thread puts random keys
     * from before the first read until every reader is done, at {@link Workload#writeRate()} puts per second (a put that
     * falls behind its schedule goes at once, so the rate holds on average). The writer's random source is split off after the readers', so a
     * seed replays the reads; its puts depend on how fast the reads go.
     */
    private Measured readWhileWriting(long reads) throws InterruptedException {
        SplittableRandom writerRandom = seeds.split();
        Meter writes = new Meter();
        AtomicBoolean readsDone = new AtomicBoolean();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        CountDownLatch writing = new CountDownLatch(1);
        Thread writer = Thread.ofPlatform().name("bench-writer").start(() -> {
            try {
                ValueGenerator values = newValueGenerator(writerRandom);
                writes.start = System.nanoTime();
                double nanosPerPut = workload.writeRate() == 0 ? 0 : 1e9 / workload.writeRate();
                for (long n = 0; n == 0 || !readsDone.get(); n++) {
                    long due = writes.start + (long) (n * nanosPerPut);
                    for (long wait = due - System.nanoTime(); wait > 0 && !readsDone.get(); wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(Math.min(wait, MAX_WRITER_PARK_NANOS));
                    }
                    if (n > 0 && readsDone.get()) {
                        break;
                    }
                    put(writerRandom.nextLong(workload.num()), values.next(), writes);
                    writing.countDown();
                }
            } catch (Throwable t) {
                writerFailure.set(t);
            } finally {
                writes.end = System.nanoTime();
                writing.countDown();
            }
        });
        Measured measured;
        try {
            writing.await(); // the reads start once the writer has made its first put
            measured = inThreads((share, random, meter) -> readRandom(share.of(reads), random, meter));
        } finally {
            readsDone.set(true);
            writer.join();
        }
        Throwable failure = writerFailure.get();
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        return new Measured(measured.threads(), measured.meters(), writes);
    }

    /** One op per entry: the time of each {@code next()}, the first one included. */
    private void readSequential(Meter meter) {
        try (BenchTarget.Cursor cursor = target.scan(null)) {
            while (true) {
                long start = System.nanoTime();
                if (!cursor.next()) {
                    break;
                }
                meter.record(start, cursor.key().length + cursor.value().length);
            }
        }
    }

    /** One op per seek: opening the cursor, reading up to seek-nexts entries and closing it. Found means it landed on the key sought. */
    private void seekRandom(Range ops, SplittableRandom random, Meter meter) {
        for (long i = 0; i < ops.count(); i++) {
            byte[] key = Keys.of(random.nextLong(workload.num()));
            long start = System.nanoTime();
            long bytes = 0;
            try (BenchTarget.Cursor cursor = target.scan(key)) {
                for (int n = 0; n < workload.seekNexts() && cursor.next(); n++) {
                    if (n == 0 && Arrays.equals(cursor.key(), key)) {
                        meter.found++;
                    }
                    bytes += cursor.key().length + cursor.value().length;
                }
            }
            meter.record(start, bytes);
        }
    }

    /** Runs {@code body} in {@link Workload#threads()} threads started together and waits for all. */
    private Measured inThreads(ThreadBody body) throws InterruptedException {
        int threads = workload.threads();
        List<Callable<Meter>> tasks = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            Share share = new Share(t, threads);
            SplittableRandom random = seeds.split();
            tasks.add(() -> {
                Meter meter = new Meter();
                meter.start = System.nanoTime();
                body.run(share, random, meter);
                meter.end = System.nanoTime();
                return meter;
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, Thread.ofPlatform().name("bench-", 0).factory());
        try {
            List<Meter> meters = new ArrayList<>(threads);
            for (Future<Meter> future : pool.invokeAll(tasks)) {
                meters.add(result(future));
            }
            return new Measured(threads, meters, null);
        } finally {
            pool.shutdownNow();
        }
    }

    private static Meter result(Future<Meter> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            // The engine's own exception, not a wrapper: it is what the report should show.
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Runs a whole-database operation (flush, compact) once in this thread, as one op. */
    private static Measured once(Runnable operation) {
        Meter meter = new Meter();
        meter.start = System.nanoTime();
        operation.run();
        meter.end = System.nanoTime();
        meter.record(meter.start, 0);
        return new Measured(1, List.of(meter), null);
    }

    @FunctionalInterface
    private interface ThreadBody {
        void run(Share share, SplittableRandom random, Meter meter);
    }

    /** Thread {@code index} of {@code threads}, which takes its contiguous part of a count of ops or keys. */
    private record Share(int index, int threads) {
        /** This thread's part of [0, total): the parts differ by at most one and cover it all. */
        Range of(long total) {
            long base = total / threads;
            long extra = total % threads;
            long first = base * index + Math.min(index, extra);
            return new Range(first, base + (index < extra ? 1 : 0));
        }
    }

    private record Range(long first, long count) {
        long end() {
            return first + count;
        }
    }

    /** One thread's counts and latencies. */
    private static final class Meter {
        /** Sized up front, so recording never resizes it; longer ops are recorded as this long. */
        private static final long MAX_LATENCY_NANOS = TimeUnit.HOURS.toNanos(1);

        final Histogram latency = new Histogram(MAX_LATENCY_NANOS, 3);
        long ops;
        long bytes;
        long found;
        long start;
        long end;

        void record(long startNanos, long opBytes) {
            latency.recordValue(Math.min(System.nanoTime() - startNanos, MAX_LATENCY_NANOS));
            ops++;
            bytes += opBytes;
        }
    }

    /**
     * The meters of every thread of one benchmark, and of the writer beside readwhilewriting's
     * reads (null for every other benchmark).
     */
    private record Measured(int threads, List<Meter> meters, Meter writesBeside) {
        /** Wall time from the first thread's start to the last one's end. */
        double seconds() {
            long start = meters.stream().mapToLong(m -> m.start).min().orElseThrow();
            long end = meters.stream().mapToLong(m -> m.end).max().orElseThrow();
            return (end - start) / 1e9;
        }

        Meter total() {
            Meter total = new Meter();
            for (Meter m : meters) {
                total.latency.add(m.latency);
                total.ops += m.ops;
                total.bytes += m.bytes;
                total.found += m.found;
            }
            return total;
        }
    }
}
