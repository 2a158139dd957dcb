package dev.strata.testkit;

import io.grpc.Status;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AwaitTest {
    @Test
    void aNodeThatCannotAnswerYetIsWaitedFor() {
        AtomicInteger calls = new AtomicInteger();
        Await.until(() -> {
            if (calls.incrementAndGet() < 3) {
                throw Status.UNAVAILABLE.withDescription("starting").asRuntimeException();
            }
            return true;
        }, Duration.ofSeconds(30), "a node to start");
        assertThat(calls).hasValue(3);
    }

    @Test
    void anyOtherExceptionFailsTheWaitAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        IllegalStateException bug = new IllegalStateException("a real failure");
        assertThatThrownBy(() -> Await.until(() -> {
            calls.incrementAndGet();
            throw bug;
        }, Duration.ofSeconds(30), "something")).isSameAs(bug);
        assertThat(calls).hasValue(1);

        assertThatThrownBy(() -> Await.until(() -> {
            throw Status.INVALID_ARGUMENT.asRuntimeException();
        }, Duration.ofSeconds(30), "something")).hasMessageContaining("INVALID_ARGUMENT");
    }

    @Test
    void unreachableIsFoundAmongTheCauses() {
        assertThat(Await.unreachable(new UncheckedIOException(new ConnectException("refused")))).isTrue();
        assertThat(Await.unreachable(new RuntimeException("wrapped", Status.DEADLINE_EXCEEDED.asException()))).isTrue();
        assertThat(Await.unreachable(new RuntimeException("wrapped", Status.NOT_FOUND.asException()))).isFalse();
        assertThat(Await.unreachable(new IllegalStateException("plain"))).isFalse();
    }

    @Test
    void aConditionThatNeverHoldsTimesOutNamingWhatItWaitedFor() {
        assertThatThrownBy(() -> Await.until(() -> false, Duration.ofMillis(100), "the impossible"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("waiting for the impossible");
    }
}
