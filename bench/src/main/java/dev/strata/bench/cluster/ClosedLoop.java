package dev.strata.bench.cluster;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The closed loop: exactly N operations in flight, each completion starting the next, until the
 * window ends (or {@code limit} operations have started). N is a count of lanes, not of threads:
 * operations are asynchronous and a completion issues the next from gRPC's thread, so 256 in
 * flight cost no 256 threads. Latency runs from the moment an operation is sent to its answer.
 *
 * <p>What counts: every operation answered at or after the measured window's start, so one sent
 * in the warm-up that stalls into the window is counted (a timeout shows as a failure, not as an
 * empty window), and the operations still in flight at the end are waited for and counted too.
 * Throughput counts the successes answered inside the window.
 *
 * <p>A closed loop waits for the server, so it cannot show what a stall costs the requests that
 * would have arrived meanwhile (coordinated omission); {@link OpenLoop} can.
 */
final class ClosedLoop {
    /** Completions that arrive on the thread that sent (an immediate failure) nest; past this depth they hop threads. */
    private static final int MAX_NESTING = 16;
    private static final ThreadLocal<int[]> NESTING = ThreadLocal.withInitial(() -> new int[1]);

    private final Issuer issuer;
    private final Window window;
    private final long limit;
    private final Outcomes outcomes;
    private final AtomicLong sequence = new AtomicLong();
    private final int concurrency;
    private final CountDownLatch lanesDone;
    private final ExecutorService overflow = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "closed-loop-overflow");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param limit       most operations to start (Long.MAX_VALUE: as many as fit the window)
     * @param concurrency operations in flight, >= 1
     */
    ClosedLoop(Issuer issuer, Window window, long limit, int concurrency, Outcomes outcomes) {
        this.issuer = issuer;
        this.window = window;
        this.limit = limit;
        this.concurrency = concurrency;
        this.lanesDone = new CountDownLatch(concurrency);
        this.outcomes = outcomes;
    }

    /**
     * Runs the lanes and returns once every lane's last operation has completed, or
     * {@code drainLimit} after the window's end. Operations still unanswered then are counted as
     * failures ({@code NO_ANSWER}). Runs once.
     */
    void run(Duration drainLimit) throws InterruptedException {
        try {
            for (int lane = 0; lane < concurrency; lane++) {
                next();
            }
            if (!lanesDone.await(window.nanosUntilEndPlus(drainLimit), TimeUnit.NANOSECONDS)) {
                outcomes.failures(Failures.NO_ANSWER, lanesDone.getCount());
            }
        } finally {
            overflow.shutdownNow();
        }
    }

    /** Starts this lane's next operation, or ends the lane when the window or the limit is reached. */
    private void next() {
        long sent = System.nanoTime();
        long i = sent >= window.end() ? limit : sequence.getAndIncrement();
        if (i >= limit) {
            lanesDone.countDown();
            return;
        }
        issuer.issue(i, failure -> {
            long answered = System.nanoTime();
            if (answered >= window.measureStart()) {
                outcomes.completed(failure, answered - sent, answered < window.end());
            }
            continueLane();
        });
    }

    private void continueLane() {
        int[] nesting = NESTING.get();
        if (nesting[0] >= MAX_NESTING) {
            try {
                overflow.execute(this::next);
            } catch (RejectedExecutionException lateAfterDrain) {
                lanesDone.countDown(); // run() has returned: the lane ends here
            }
            return;
        }
        nesting[0]++;
        try {
            next();
        } finally {
            nesting[0]--;
        }
    }
}
