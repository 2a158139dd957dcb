package dev.strata.cli.bench;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The benchmark's threads. They are daemons, so a call stuck past its deadline cannot keep the
 * JVM alive once the command has returned.
 */
final class Threads {
    private Threads() {}

    static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    static ExecutorService pool(int threads, String name) {
        return Executors.newFixedThreadPool(threads, daemons(name));
    }

    /** Waits for every task, then rethrows the first one's failure as the task threw it. */
    static void awaitAll(List<Future<?>> tasks) throws InterruptedException {
        Throwable first = null;
        for (Future<?> f : tasks) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause();
                }
            }
        }
        if (first instanceof RuntimeException r) {
            throw r;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException(first);
        }
    }
}
