package dev.strata.server.raft;

import dev.strata.server.config.ServerConfig;
import dev.strata.server.tls.ServerTls;
import dev.strata.testkit.Ports;
import org.apache.ratis.server.RaftServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Ratis 3.3.0 deadlock that {@link StoppedFollowerStateRelease} ends, built on a real node: a
 * follower whose other member does not answer, so its Ratis timer thread wakes every election
 * timeout and takes the server's lock. The test takes that lock first, as the append thread of a
 * promotion does, waits until the timer thread blocks on it, stops the timer as the promotion
 * does and, still holding the lock, waits for the timer's "stopped" future: only the release can
 * complete it.
 */
class StoppedFollowerStateReleaseTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void theReflectedFieldsAreStillThereInThisRatis() {
        // Throws if a Ratis upgrade renamed or retyped them: the workaround then needs review.
        new StoppedFollowerStateRelease();
    }

    @Test
    void aStoppedTimerThatWaitsForTheServersLockIsReleasedAndThenEndsByItself(@TempDir Path dir) throws Exception {
        int raftPort = Ports.free();
        int clientPort = Ports.free();
        String peers = "1=127.0.0.1:" + raftPort + ":" + clientPort + ",2=127.0.0.1:" + Ports.free() + ":" + Ports.free();
        ServerConfig config = ServerConfig.resolve(Map.of(
                "strata.data.dir", dir.toString(),
                "strata.node.id", "1",
                "strata.cluster.peers", peers,
                "strata.raft.election-timeout", "200ms"));
        try (RaftNode node = new RaftNode(config, ServerTls.plaintext())) {
            node.start();
            RaftServer.Division serverLock = node.division();
            Thread timer = null;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (timer == null && System.nanoTime() < deadline) {
                synchronized (serverLock) {
                    // Only a follower has a timer; a candidate's election needs this lock to end,
                    // so the lock is let go and taken again until the node is a follower.
                    timer = serverLock.getInfo().isFollower() ? blockedFollowerTimerWithin(Duration.ofSeconds(2)) : null;
                    if (timer != null) {
                        CompletableFuture<?> stopped = stopRunning(timer);
                        // The interrupt of stopRunning does not reach a thread waiting for a monitor.
                        assertThat(timer.getState()).isEqualTo(Thread.State.BLOCKED);
                        stopped.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                        assertThat(timer.isAlive()).as("released while it still waits for the lock").isTrue();
                    }
                }
                if (timer == null) {
                    Thread.sleep(100);
                }
            }
            assertThat(timer).as("the follower timer waiting for the server's lock").isNotNull();
            timer.join(WAIT.toMillis());
            assertThat(timer.isAlive()).as("it ends by itself once it has the lock").isFalse();
        }
    }

    /** The node's Ratis follower timer thread once it blocks on a monitor within {@code wait}, else null. */
    private static Thread blockedFollowerTimerWithin(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        do {
            Thread t = blockedFollowerTimer();
            if (t != null) {
                return t;
            }
            Thread.sleep(10);
        } while (System.nanoTime() < deadline);
        return null;
    }

    /** The node's Ratis follower timer thread if it is blocked on a monitor, else null. */
    private static Thread blockedFollowerTimer() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getClass().getName().equals(StoppedFollowerStateRelease.FOLLOWER_STATE_CLASS)
                    && t.getState() == Thread.State.BLOCKED) {
                return t;
            }
        }
        return null;
    }

    /** What Ratis's changeToFollower does to the old timer: {@code FollowerState.stopRunning()}. */
    private static CompletableFuture<?> stopRunning(Thread followerTimer) throws ReflectiveOperationException {
        Method stop = followerTimer.getClass().getDeclaredMethod("stopRunning");
        stop.setAccessible(true);
        return (CompletableFuture<?>) stop.invoke(followerTimer);
    }
}
