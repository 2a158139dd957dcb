package dev.strata.bench.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ClosedLoopTest {
    /** A window that never ends on its own: the limit ends the run. */
    private static Window open() {
        return new Window(Long.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    @Test
    void answersOnTheSendingThreadDoNotOverflowTheStack() throws Exception {
        // Every operation completes inside issue(), as an immediate failure would: without the
        // hand-off past a nesting depth, 200,000 operations on 4 lanes would nest 50,000 deep.
        Outcomes outcomes = new Outcomes();
        AtomicLong issued = new AtomicLong();
        Issuer immediate = (i, done) -> {
            issued.incrementAndGet();
            done.completed(i % 10 == 0 ? "UNAVAILABLE" : null);
        };
        new ClosedLoop(immediate, open(), 200_000, 4, outcomes).run(Duration.ofSeconds(30));
        assertThat(issued).hasValue(200_000);
        assertThat(outcomes.successes()).isEqualTo(180_000);
        assertThat(outcomes.failureCounts()).containsEntry("UNAVAILABLE", 20_000L);
        assertThat(outcomes.latencies().getTotalCount()).as("only successes have a latency").isEqualTo(180_000);
    }

    @Test
    void operationsOfTheWarmupAreNotMeasured() throws Exception {
        // The measured window starts in the far future: nothing sent now is measured.
        Outcomes outcomes = new Outcomes();
        Window warmupOnly = new Window(Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        new ClosedLoop((i, done) -> done.completed(null), warmupOnly, 1000, 2, outcomes).run(Duration.ofSeconds(30));
        assertThat(outcomes.successes()).isZero();
        assertThat(outcomes.failureCounts()).isEmpty();
    }

    @Test
    void anOperationSentInTheWarmupAndAnsweredInTheWindowCounts() throws Exception {
        // The one operation is sent before the window and answered (timed out) after its start:
        // a stall across the window's start must show as a failure, not as an empty window.
        Outcomes outcomes = new Outcomes();
        long now = System.nanoTime();
        Window window = new Window(now, now + 20_000_000, Long.MAX_VALUE);
        Issuer stalls = (i, done) -> Thread.ofPlatform().start(() -> {
            while (System.nanoTime() < window.measureStart()) {
                Thread.onSpinWait();
            }
            done.completed(Failures.TIMED_OUT);
        });
        new ClosedLoop(stalls, window, 1, 1, outcomes).run(Duration.ofSeconds(30));
        assertThat(outcomes.failureCounts()).containsEntry(Failures.TIMED_OUT, 1L);
    }

    @Test
    void successesAnsweredAfterTheWindowHaveALatencyButNoThroughput() throws Exception {
        Outcomes outcomes = new Outcomes();
        long now = System.nanoTime();
        // A lane starts only inside the window: a second leaves room for all three on a loaded
        // machine (20 ms did not, with a soak beside the build), and each answer comes after it.
        Window window = new Window(now, now, now + 1_000_000_000);
        Issuer late = (i, done) -> Thread.ofPlatform().start(() -> {
            while (System.nanoTime() < window.end()) {
                Thread.onSpinWait();
            }
            done.completed(null);
        });
        new ClosedLoop(late, window, Long.MAX_VALUE, 3, outcomes).run(Duration.ofSeconds(30));
        assertThat(outcomes.successes()).isEqualTo(3);
        assertThat(outcomes.successesInWindow()).isZero();
    }
}
