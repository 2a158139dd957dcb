package dev.strata.bench.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The open loop over a window that lies wholly in the past: every operation is already due when
 * the loop starts, so what it sends, refuses and measures does not depend on timing.
 */
class OpenLoopTest {
    private static final long S = 1_000_000_000L;

    /** 1000 ops/s for 1 s, the first half warm-up: operations 0..499 unmeasured, 500..999 measured; all due 1 s ago or more. */
    private static Window past() {
        long now = System.nanoTime();
        return new Window(now - 2 * S, now - 2 * S + S / 2, now - S);
    }

    @Test
    void latencyRunsFromTheIntendedStart() throws Exception {
        Outcomes outcomes = new Outcomes();
        new OpenLoop((i, done) -> done.completed(null), past(), outcomes).run(1000, 10_000, Duration.ofSeconds(5));
        assertThat(outcomes.successes()).isEqualTo(500);
        assertThat(outcomes.failureCounts()).isEmpty();
        // Sent late, answered at once: the latency still counts from when each was due, at least 1 s ago.
        assertThat(outcomes.latencies().getMinValue()).isGreaterThanOrEqualTo(S);
    }

    @Test
    void operationsRefusedByTheCapAreFailuresNotGaps() throws Exception {
        Outcomes outcomes = new Outcomes();
        List<KvTarget.Completion> held = new ArrayList<>();
        Issuer neverAnswers = (i, done) -> held.add(done);
        new OpenLoop(neverAnswers, past(), outcomes).run(1000, 100, Duration.ofMillis(10));
        // 0..99 were sent (warm-up, unmeasured) and never answered; 100..999 were refused, 500 of them measured.
        assertThat(held).hasSize(100);
        assertThat(outcomes.failureCounts()).containsEntry(Failures.NOT_SENT, 500L).doesNotContainKey(Failures.NO_ANSWER);
        assertThat(outcomes.successes()).isZero();
    }

    @Test
    void measuredOperationsNeverAnsweredAreCounted() throws Exception {
        Outcomes outcomes = new Outcomes();
        List<KvTarget.Completion> held = new ArrayList<>();
        // Answers the warm-up, holds the measured ones from 900 on.
        Issuer stalls = (i, done) -> {
            if (i < 900) {
                done.completed(i % 2 == 0 ? null : "UNAVAILABLE");
            } else {
                held.add(done);
            }
        };
        new OpenLoop(stalls, past(), outcomes).run(1000, 10_000, Duration.ofMillis(10));
        assertThat(outcomes.successes()).isEqualTo(200); // 500..899, even
        assertThat(outcomes.failureCounts()).containsEntry("UNAVAILABLE", 200L).containsEntry(Failures.NO_ANSWER, 100L);
    }
}
