package dev.strata.server.raft;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Which ReadIndex round each read may use: one that started after the read arrived. */
class ReadBarrierTest {
    private final List<CompletableFuture<Void>> rounds = new ArrayList<>();
    private final ReadBarrier barrier = new ReadBarrier(() -> {
        CompletableFuture<Void> r = new CompletableFuture<>();
        rounds.add(r);
        return r;
    }, Runnable::run);

    @Test
    void aReadOnAnIdleNodeStartsARoundAtOnce() {
        CompletableFuture<Void> read = barrier.await();
        assertThat(rounds).hasSize(1);
        assertThat(read).isNotDone();
        rounds.get(0).complete(null);
        assertThat(read).isCompleted();
    }

    @Test
    void readsThatArriveDuringARoundShareTheNextOneAndNotTheRunningOne() {
        CompletableFuture<Void> first = barrier.await();
        CompletableFuture<Void> second = barrier.await();
        CompletableFuture<Void> third = barrier.await();
        assertThat(rounds).as("one round at a time").hasSize(1);

        rounds.get(0).complete(null);
        assertThat(first).isCompleted();
        assertThat(second).as("its round started before it arrived").isNotDone();
        assertThat(rounds).as("the reads that waited start the next round together").hasSize(2);

        rounds.get(1).complete(null);
        assertThat(second).isCompleted();
        assertThat(third).isCompleted();
        assertThat(rounds).hasSize(2);
    }

    @Test
    void aFailedRoundFailsItsReadsAndTheNextRoundStillRuns() {
        CompletableFuture<Void> first = barrier.await();
        CompletableFuture<Void> second = barrier.await();
        rounds.get(0).completeExceptionally(new IllegalStateException("not leader"));
        assertThat(first).isCompletedExceptionally();
        assertThat(second).isNotDone();
        rounds.get(1).complete(null);
        assertThat(second).isCompleted();

        CompletableFuture<Void> later = barrier.await();
        assertThat(rounds).hasSize(3);
        rounds.get(2).complete(null);
        assertThat(later).isCompleted();
    }
}
