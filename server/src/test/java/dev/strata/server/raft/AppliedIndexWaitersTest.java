package dev.strata.server.raft;

import org.apache.ratis.server.protocol.TermIndex;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void markersRoundTripTermIndexAndRevision() {
        TermIndex ti = TermIndex.valueOf(3, 1234567890123L);
        byte[] marker = AppliedMarker.encode(ti, 987654321L);
        assertThat(AppliedMarker.decode(marker)).isEqualTo(ti);
        assertThat(AppliedMarker.revision(marker)).isEqualTo(987654321L);
        assertThat(AppliedMarker.decode(null)).isNull();
        assertThat(AppliedMarker.revision(null)).isZero();
    }

    @Test
    void aMarkerWithoutRevisionHasTheIndexAsItsRevision() {
        // Written when every log entry was one write, so the revision was the entry's index.
        byte[] legacy = java.nio.ByteBuffer.allocate(16).putLong(2).putLong(77).array();
        assertThat(AppliedMarker.decode(legacy)).isEqualTo(TermIndex.valueOf(2, 77));
        assertThat(AppliedMarker.revision(legacy)).isEqualTo(77);
    }

    @Test
    void aMarkerOfAnotherSizeIsCorruption() {
        assertThatThrownBy(() -> AppliedMarker.revision(new byte[20]))
                .isInstanceOf(dev.strata.engine.EngineException.class).hasMessageContaining("applied marker is 20 bytes");
    }
}
