package dev.strata.server;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class ShutdownWatchdogTest {
    @Test
    void aStopPastItsDeadlineEndsTheProcess() throws InterruptedException {
        CountDownLatch halted = new CountDownLatch(1);
        ShutdownWatchdog.start("a stuck stop", Duration.ofMillis(50), halted::countDown);
        assertThat(halted.await(30, TimeUnit.SECONDS)).as("halted").isTrue();
    }

    @Test
    void aStopThatFinishesInTimeIsLeftAlone() throws InterruptedException {
        AtomicBoolean halted = new AtomicBoolean();
        ShutdownWatchdog w = ShutdownWatchdog.start("a quick stop", Duration.ofHours(1), () -> halted.set(true));
        w.finished();
        w.watcher().join(TimeUnit.SECONDS.toMillis(30));
        assertThat(w.watcher().isAlive()).as("the watcher ended without waiting for the deadline").isFalse();
        assertThat(halted).isFalse();
    }

    @Test
    void theThreadDumpNamesEveryThreadWithItsStack() {
        String dump = ShutdownWatchdog.threadDump();
        assertThat(dump).contains("\"" + Thread.currentThread().getName() + "\" RUNNABLE")
                .contains("dev.strata.server.ShutdownWatchdogTest.theThreadDumpNamesEveryThreadWithItsStack(");
    }
}
