package dev.strata.cli.bench;

import dev.strata.client.OutcomeUnknownException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes every key of the key space, {@code [0, --keys)}, before a run: batches of consecutive
 * keys from --clients threads at once. A batch whose outcome is unknown is sent again, since it
 * only sets each key to a value and applying it twice is harmless; after
 * {@value #ATTEMPTS} such attempts, or at any other failure, the load stops and throws.
 */
final class Loader {
    private static final int ATTEMPTS = 3;
    /** Below the default request limits (Strata 24 MiB, etcd 1.5 MiB), and small enough to spread over every thread. */
    private static final long MAX_BATCH_BYTES = 1 << 20;

    private final Target target;
    private final BenchSettings settings;
    private final KeySpace keys;
    private final int batchKeys;
    private final AtomicLong nextBatch = new AtomicLong();
    private final AtomicLong loaded = new AtomicLong();
    private volatile boolean failed;

    Loader(Target target, BenchSettings settings, KeySpace keys) {
        this.target = target;
        this.settings = settings;
        this.keys = keys;
        long entry = keys.key(0).length + settings.valueSize();
        this.batchKeys = (int) Math.max(1, Math.min(target.maxBatchKeys(), MAX_BATCH_BYTES / entry));
    }

    /**
     * Loads the keys, with a progress line on {@code progress}.
     *
     * @throws dev.strata.client.StrataException the first batch that failed, once every thread has stopped
     */
    BenchReport.Load load(PrintWriter progress, boolean terminal) throws InterruptedException {
        long start = System.nanoTime();
        SplittableRandom seeds = new SplittableRandom(settings.seed());
        ExecutorService pool = Threads.pool(settings.clients(), "strata-bench-load");
        Progress line = Progress.start(progress, terminal, () -> String.format(Locale.ROOT, "load %4.0f s  %,d of %,d keys",
                (System.nanoTime() - start) / 1e9, loaded.get(), settings.keys()));
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int i = 0; i < settings.clients(); i++) {
                ValueGenerator values = new ValueGenerator(seeds.nextLong(), Math.toIntExact(settings.valueSize()),
                        settings.compressibility());
                tasks.add(pool.submit(() -> loadBatches(values)));
            }
            Threads.awaitAll(tasks);
        } finally {
            line.close();
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new BenchReport.Load(settings.keys(), seconds, settings.keys() / seconds);
    }

    private void loadBatches(ValueGenerator values) {
        try {
            for (long from = nextBatch.getAndIncrement() * batchKeys; from < settings.keys() && !failed;
                 from = nextBatch.getAndIncrement() * batchKeys) {
                long to = Math.min(settings.keys(), from + batchKeys);
                List<byte[]> keysOfBatch = new ArrayList<>();
                List<byte[]> valuesOfBatch = new ArrayList<>();
                for (long n = from; n < to; n++) {
                    keysOfBatch.add(keys.key(n));
                    valuesOfBatch.add(values.next());
                }
                commit(keysOfBatch, valuesOfBatch);
                loaded.addAndGet(to - from);
            }
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    private void commit(List<byte[]> keysOfBatch, List<byte[]> valuesOfBatch) {
        for (int attempt = 1; ; attempt++) {
            try {
                target.putAll(keysOfBatch, valuesOfBatch);
                return;
            } catch (OutcomeUnknownException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
