package dev.strata.server.raft;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ObservedCallTest {
    @Test
    void returnsOnceTheChangeIsCommittedWhileTheCallStillWaits() throws Exception {
        CountDownLatch callMayReturn = new CountDownLatch(1);
        CountDownLatch callStarted = new CountDownLatch(1);
        AtomicBoolean committed = new AtomicBoolean();
        Thread committer = Thread.ofVirtual().start(() -> {
            try {
                callStarted.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            committed.set(true);
        });

        ObservedCall.run(() -> {
            callStarted.countDown();
            try {
                callMayReturn.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, committed::get, "a change");

        assertThat(committed).isTrue();
        assertThat(callMayReturn.getCount()).as("the call has not returned").isEqualTo(1);
        callMayReturn.countDown();
        committer.join();
    }

    @Test
    void aFailedCallFailsTheChangeWhenNothingIsCommitted() {
        IOException refused = new IOException("compare-and-set failed");
        assertThatThrownBy(() -> ObservedCall.run(() -> {
            throw refused;
        }, () -> false, "a change")).isSameAs(refused);
    }

    @Test
    void aFailedCallStillSucceedsWhenTheChangeIsCommitted() throws IOException {
        ObservedCall.run(() -> {
            throw new IOException("timed out; the retry lost the compare-and-set it had won");
        }, () -> true, "a change");
    }

    @Test
    void aCallThatReturnsIsDoneWithoutACommitSeen() throws IOException {
        AtomicBoolean called = new AtomicBoolean();
        ObservedCall.run(() -> called.set(true), () -> false, "a change");
        assertThat(called).isTrue();
    }

    @Test
    void aRuntimeFailureIsRethrownAsItIs() {
        IllegalStateException closed = new IllegalStateException("client closed");
        assertThatThrownBy(() -> ObservedCall.run(() -> {
            throw closed;
        }, () -> false, "a change")).isSameAs(closed);
    }

    @Test
    void aFailedCallWhoseEffectShowsWithinTheGraceIsDone() throws IOException {
        // The effect shows on the third look after the failure, as a new leader's first heartbeat would.
        AtomicInteger looks = new AtomicInteger();
        ObservedCall.run(() -> {
            throw new IOException("TIMED_OUT");
        }, () -> looks.incrementAndGet() >= 3, Duration.ofMinutes(1), "a transfer");
        assertThat(looks).hasValue(3);
    }

    @Test
    void aFailedCallWhoseEffectNeverShowsFailsAfterTheGrace() {
        IOException timedOut = new IOException("TIMED_OUT");
        AtomicInteger looks = new AtomicInteger();
        assertThatThrownBy(() -> ObservedCall.run(() -> {
            throw timedOut;
        }, () -> looks.incrementAndGet() < 0, Duration.ofMillis(100), "a transfer")).isSameAs(timedOut);
        assertThat(looks.get()).as("looked more than once during the grace").isGreaterThan(1);
    }
}
