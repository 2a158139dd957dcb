package dev.strata.server.raft;

import org.apache.ratis.server.protocol.TermIndex;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class AppliedIndexWaitersTest {
    @Test
    void waitersCompleteWhenTheirIndexIsApplied() {
        AppliedIndexWaiters w = new AppliedIndexWaiters();
        w.advance(5);
        assertThat(w.await(5)).isDone();
        CompletableFuture<Void> seven = w.await(7);
        CompletableFuture<Void> nine = w.await(9);
        w.advance(8);
        assertThat(seven).isCompleted();
        assertThat(nine).isNotDone();
        w.failAll(new IllegalStateException("closed"));
        assertThat(nine).isCompletedExceptionally();
    }

    @Test
    void markersRoundTripTermAndIndex() {
        TermIndex ti = TermIndex.valueOf(3, 1234567890123L);
        assertThat(AppliedMarker.decode(AppliedMarker.encode(ti))).isEqualTo(ti);
        assertThat(AppliedMarker.decode(null)).isNull();
    }
}
