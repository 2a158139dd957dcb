package dev.strata.server.raft;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigurationChangeCallTest {
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

        ConfigurationChangeCall.run(() -> {
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
        assertThatThrownBy(() -> ConfigurationChangeCall.run(() -> {
            throw refused;
        }, () -> false, "a change")).isSameAs(refused);
    }

    @Test
    void aFailedCallStillSucceedsWhenTheChangeIsCommitted() throws IOException {
        ConfigurationChangeCall.run(() -> {
            throw new IOException("timed out; the retry lost the compare-and-set it had won");
        }, () -> true, "a change");
    }

    @Test
    void aCallThatReturnsIsDoneWithoutACommitSeen() throws IOException {
        AtomicBoolean called = new AtomicBoolean();
        ConfigurationChangeCall.run(() -> called.set(true), () -> false, "a change");
        assertThat(called).isTrue();
    }

    @Test
    void aRuntimeFailureIsRethrownAsItIs() {
        IllegalStateException closed = new IllegalStateException("client closed");
        assertThatThrownBy(() -> ConfigurationChangeCall.run(() -> {
            throw closed;
        }, () -> false, "a change")).isSameAs(closed);
    }
}
