package dev.strata.bench.cluster;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The open loop: operations offered at a fixed rate whatever the server does, each with an
 * intended start ({@link OpenLoopSchedule}), its latency measured from that intended start. When
 * the server stalls, the operations due meanwhile wait (or, past the in-flight cap, are not sent
 * and count as failures), and the stall shows in the tail instead of hiding as it does in a closed
 * loop (coordinated omission). What counts: every operation due inside the measured window,
 * whenever it is answered (the last ones are waited for); operations due in the warm-up are sent
 * but not counted.
 *
 * <p>One thread, the caller's, sends; completions run on gRPC's threads.
 */
final class OpenLoop {
    private final Issuer issuer;
    private final Window window;
    private final Outcomes outcomes;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger measuredUnanswered = new AtomicInteger();
    private final CountDownLatch drained = new CountDownLatch(1);
    private volatile boolean sendingDone;

    OpenLoop(Issuer issuer, Window window, Outcomes outcomes) {
        this.issuer = issuer;
        this.window = window;
        this.outcomes = outcomes;
    }

    /**
     * Offers {@code opsPerSecond} with at most {@code maxInFlight} unanswered, until the window
     * ends; returns once every sent operation has been answered, or {@code drainLimit} after the
     * end (measured ones still unanswered then count as {@code NO_ANSWER} failures).
     */
    void run(double opsPerSecond, int maxInFlight, Duration drainLimit) throws InterruptedException {
        OpenLoopSchedule schedule = new OpenLoopSchedule(opsPerSecond, window.start(), window.end());
        while (!schedule.finished()) {
            OpenLoopSchedule.Admission a = schedule.admit(System.nanoTime(), inFlight.get(), maxInFlight);
            for (long k = a.first(); k < a.first() + a.send(); k++) {
                send(schedule, k);
            }
            long refusedFrom = a.first() + a.send();
            long refusedInWindow = schedule.dueAtOrAfter(refusedFrom, refusedFrom + a.notSent(), window.measureStart());
            outcomes.failures(Failures.NOT_SENT, refusedInWindow);
            long wait = schedule.intendedStart(schedule.next()) - System.nanoTime();
            if (wait > 0 && !schedule.finished()) {
                LockSupport.parkNanos(wait);
            }
        }
        sendingDone = true;
        if (inFlight.get() == 0) {
            drained.countDown();
        }
        if (!drained.await(window.nanosUntilEndPlus(drainLimit), TimeUnit.NANOSECONDS)) {
            outcomes.failures(Failures.NO_ANSWER, measuredUnanswered.get());
        }
    }

    private void send(OpenLoopSchedule schedule, long k) {
        long intended = schedule.intendedStart(k);
        boolean measured = window.measures(intended);
        inFlight.incrementAndGet();
        if (measured) {
            measuredUnanswered.incrementAndGet();
        }
        issuer.issue(k, failure -> {
            if (measured) {
                outcomes.completed(failure, System.nanoTime() - intended, true);
                measuredUnanswered.decrementAndGet();
            }
            if (inFlight.decrementAndGet() == 0 && sendingDone) {
                drained.countDown();
            }
        });
    }
}
