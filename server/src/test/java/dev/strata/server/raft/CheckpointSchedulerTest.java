package dev.strata.server.raft;

import dev.strata.engine.Checkpoint;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineException;
import dev.strata.engine.EngineOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

class CheckpointSchedulerTest {
    @TempDir
    Path dir;
    private Engine engine;
    private final AtomicInteger taken = new AtomicInteger();
    private final Semaphore announced = new Semaphore(0);
    private CheckpointScheduler checkpointer;

    @BeforeEach
    void open() {
        engine = Engine.open(dir, EngineOptions.defaults());
        checkpointer = new CheckpointScheduler("test-checkpoint", 3, Long.MAX_VALUE, taken::incrementAndGet, announced::release);
    }

    @AfterEach
    void close() {
        checkpointer.close();
        engine.close();
    }

    /** A checkpoint of the engine that first waits for {@code release}, telling {@code entered} it began. */
    private Supplier<Checkpoint> held(CountDownLatch entered, CountDownLatch release) {
        return () -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return engine.checkpoint();
        };
    }

    @Test
    void takesOneAtATimeOffTheCallersThreadThenAnnouncesIt() throws Exception {
        engine.put("k".getBytes(), "v".getBytes());
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);

        assertThat(checkpointer.start(held(entered, release))).isTrue();
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        // The caller goes on while the checkpoint runs: it writes, and a second start is declined.
        engine.put("k2".getBytes(), "v2".getBytes());
        assertThat(checkpointer.start(engine::checkpoint)).isFalse();
        assertThat(taken).hasValue(0);
        assertThat(announced.availablePermits()).isZero();

        release.countDown();
        assertThat(announced.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        assertThat(taken).hasValue(1);
        assertThat(engine.latestCheckpoint()).isNotNull();
        assertThat(engine.latestCheckpoint().sequence()).isEqualTo(engine.lastSequence());

        // The announcement runs apart from the checkpoint's thread and can come before that thread is done.
        checkpointer.awaitIdle();
        assertThat(checkpointer.start(engine::checkpoint)).as("free again once the first is done").isTrue();
        assertThat(announced.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        assertThat(taken).hasValue(2);
    }

    @Test
    void startsOneOnceEnoughLogWentByAndCountsAgainFromThere() throws Exception {
        AtomicInteger started = new AtomicInteger();
        Supplier<Checkpoint> counted = () -> {
            started.incrementAndGet();
            return engine.checkpoint();
        };
        checkpointer.applied(10, counted);
        checkpointer.applied(10, counted);
        checkpointer.awaitIdle();
        assertThat(started).as("two entries of a threshold of three").hasValue(0);
        checkpointer.applied(10, counted);
        assertThat(announced.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        assertThat(started).hasValue(1);
        checkpointer.applied(10, counted);
        checkpointer.applied(10, counted);
        checkpointer.awaitIdle();
        assertThat(started).as("the count starts again when one starts").hasValue(1);

        CheckpointScheduler byBytes = new CheckpointScheduler("test-bytes", Long.MAX_VALUE, 100, () -> { }, () -> { });
        try {
            byBytes.applied(60, counted);
            byBytes.awaitIdle();
            assertThat(started).hasValue(1);
            byBytes.applied(60, counted);
            byBytes.awaitIdle();
            assertThat(started).as("over the byte threshold").hasValue(2);
        } finally {
            byBytes.close();
        }
    }

    @Test
    void keepsCountingWhileOneRunsAndStartsTheNextOnceItIsDone() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        Supplier<Checkpoint> counted = () -> {
            started.incrementAndGet();
            return engine.checkpoint();
        };
        assertThat(checkpointer.start(held(entered, release))).isTrue();
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 4; i++) {
            checkpointer.applied(10, counted); // due after three, but one runs
        }
        release.countDown();
        assertThat(announced.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        // The announcement runs apart from the checkpoint's thread and can come before that thread is done.
        checkpointer.awaitIdle();
        assertThat(started).hasValue(0);
        checkpointer.applied(10, counted);
        assertThat(announced.tryAcquire(30, TimeUnit.SECONDS)).as("the count was kept: due at once").isTrue();
        assertThat(started).hasValue(1);
    }

    @Test
    void suspendWaitsForTheRunningOneAndStartsNoneUntilResumed() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        assertThat(checkpointer.start(held(entered, release))).isTrue();
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        Thread suspending = Thread.ofPlatform().start(checkpointer::suspend);
        release.countDown();
        suspending.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(suspending.isAlive()).isFalse();
        assertThat(taken).as("suspend returned after the running one finished").hasValue(1);

        assertThat(checkpointer.start(engine::checkpoint)).isFalse();
        for (int i = 0; i < 5; i++) {
            checkpointer.applied(10, engine::checkpoint);
        }
        checkpointer.awaitIdle();
        assertThat(taken).hasValue(1);
        checkpointer.resume();
        assertThat(checkpointer.start(engine::checkpoint)).isTrue();
        checkpointer.awaitIdle();
        assertThat(taken).hasValue(2);
    }

    @Test
    void waitingForACheckpointDoesNotWaitForItsAnnouncement() throws Exception {
        // Ratis may hold its server lock while it pauses the state machine, which waits for the
        // checkpoint; announcing takes that lock, so the wait must not include the announcement.
        CountDownLatch announcing = new CountDownLatch(1);
        CountDownLatch lockFreed = new CountDownLatch(1);
        CheckpointScheduler blocked = new CheckpointScheduler("test-blocked", 1, Long.MAX_VALUE, () -> { }, () -> {
            announcing.countDown();
            try {
                lockFreed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(blocked.start(engine::checkpoint)).isTrue();
            assertThat(announcing.await(30, TimeUnit.SECONDS)).isTrue();
            Thread suspending = Thread.ofPlatform().start(blocked::suspend);
            suspending.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(suspending.isAlive()).as("suspend returned although the announcement still waits").isFalse();
            assertThat(lockFreed.getCount()).isEqualTo(1);
        } finally {
            lockFreed.countDown();
            blocked.close();
        }
    }

    @Test
    void anOperatorsRequestIsTakenOnce() {
        assertThat(checkpointer.nowPending()).isFalse();
        checkpointer.requestNow();
        assertThat(checkpointer.nowPending()).isTrue();
        assertThat(checkpointer.takeNowRequest()).isTrue();
        assertThat(checkpointer.nowPending()).isFalse();
        assertThat(checkpointer.takeNowRequest()).isFalse();
        checkpointer.requestNow();
        checkpointer.cancelNow();
        assertThat(checkpointer.takeNowRequest()).as("withdrawn").isFalse();
    }

    @Test
    void aFailedCheckpointIsNeitherCountedNorAnnouncedAndTheNextStarts() throws Exception {
        CountDownLatch failed = new CountDownLatch(1);
        assertThat(checkpointer.start(() -> {
            failed.countDown();
            throw new EngineException(EngineException.Code.IO_ERROR, "disk gone");
        })).isTrue();
        assertThat(failed.await(30, TimeUnit.SECONDS)).isTrue();
        checkpointer.awaitIdle();
        assertThat(taken).hasValue(0);
        assertThat(announced.availablePermits()).isZero();

        assertThat(checkpointer.start(engine::checkpoint)).isTrue();
        assertThat(announced.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        assertThat(taken).hasValue(1);
    }

    @Test
    void closeWaitsForTheRunningCheckpointAndStartsNoMore() throws Exception {
        engine.put("k".getBytes(), "v".getBytes());
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        assertThat(checkpointer.start(held(entered, release))).isTrue();
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

        Thread closing = Thread.ofPlatform().start(checkpointer::close);
        closing.join(200);
        assertThat(closing.isAlive()).as("close waits for the running checkpoint").isTrue();
        release.countDown();
        closing.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(closing.isAlive()).isFalse();
        assertThat(taken).hasValue(1);

        assertThat(checkpointer.start(engine::checkpoint)).as("closed").isFalse();
    }
}
