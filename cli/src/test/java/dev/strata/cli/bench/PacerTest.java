package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PacerTest {
    @Test
    void operationsAreDueOneIntervalApartFromTheStart() {
        Pacer pacer = new Pacer(1000, 5_000_000L);
        assertThat(pacer.claim()).isEqualTo(5_000_000L);
        assertThat(pacer.claim()).isEqualTo(6_000_000L);
        assertThat(pacer.claim()).isEqualTo(7_000_000L);
    }

    @Test
    void concurrentClaimsGetEveryDueTimeOnce() throws Exception {
        Pacer pacer = new Pacer(1_000_000, 0);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Long>>> claims = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                claims.add(pool.submit(() -> {
                    List<Long> mine = new ArrayList<>();
                    for (int i = 0; i < 10_000; i++) {
                        mine.add(pacer.claim());
                    }
                    return mine;
                }));
            }
            Set<Long> all = new HashSet<>();
            for (Future<List<Long>> f : claims) {
                all.addAll(f.get());
            }
            assertThat(all).hasSize(40_000);
            assertThat(Collections.max(all)).isEqualTo(39_999 * 1_000L);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void waitingForADueTimeReturnsNoEarlierThanIt() {
        long due = System.nanoTime() + 20_000_000L;
        Pacer.awaitDue(due);
        assertThat(System.nanoTime()).isGreaterThanOrEqualTo(due);
    }

    @Test
    void aRateMustBePositiveAndFinite() {
        assertThatThrownBy(() -> new Pacer(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Pacer(Double.NaN, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Pacer(Double.POSITIVE_INFINITY, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDurationBoundPhaseAdmitsOnlyOperationsDueBeforeItsEnd() {
        PhaseEnd end = PhaseEnd.after(Duration.ofSeconds(1));
        long now = System.nanoTime();
        assertThat(end.admits(now)).isTrue();
        assertThat(end.admits(now + 2_000_000_000L)).isFalse();
        PhaseEnd counted = PhaseEnd.afterOps(3);
        assertThat(counted.admits(now + 3_600_000_000_000L)).as("ended by its count alone").isTrue();
        counted.halt();
        assertThat(counted.admits(now)).isFalse();
    }
}
