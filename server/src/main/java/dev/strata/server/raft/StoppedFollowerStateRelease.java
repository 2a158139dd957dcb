package dev.strata.server.raft;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Ends a deadlock of Ratis 3.3.0 (still in its main branch) that leaves a promoted learner
 * silent for good: the release of a stopped follower timer whose thread waits for the server's
 * lock, so that whoever stopped it while holding that lock can go on.
 *
 * <p>The deadlock. A learner (a Ratis listener) runs a {@code FollowerState} thread that wakes
 * every election timeout and takes the server's lock ({@code RaftServerImpl}'s monitor). When an
 * append brings the configuration that makes the learner a voter, the append thread, holding
 * that lock ({@code ServerState.updateConfiguration}, RATIS-2378), stops the learner's timer and
 * waits for its thread to end ({@code changeToFollower(...).join()}). If that thread has just
 * woken and is waiting for the lock, neither ever moves: the interrupt that stops it does not
 * reach a thread waiting for a monitor. The node then answers no append, vote or heartbeat, while
 * the leader holds the promotion open ("Reconfiguration is already in progress"). Seen in the
 * fault-injection soak about once in seventy replaced-disk runs, more often under CPU load, which
 * widens the window; a thread dump showed exactly these two threads.
 *
 * <p>The release. A stopped timer does nothing once it gets the lock: it checks that it is still
 * running before it could start an election, finds it is not, and ends. So completing its
 * "stopped" future before its thread ends changes nothing but the wait: the append thread goes
 * on, leaves the lock, and the old thread then ends by itself. This class finds such threads (a
 * {@code FollowerState} no longer running, blocked on a monitor on {@value #SIGHTINGS} checks in
 * a row) and completes their future. A stopped timer that merely waits behind a slow holder of
 * the lock (Ratis writes its metadata under it) is released too, which is as harmless. It reaches
 * the two private fields by reflection, checked when the node starts and by a test, so that a
 * Ratis upgrade that changes them fails the build instead of silently dropping the release.
 */
final class StoppedFollowerStateRelease {
    private static final Logger LOG = LoggerFactory.getLogger(StoppedFollowerStateRelease.class);
    static final String FOLLOWER_STATE_CLASS = "org.apache.ratis.server.impl.FollowerState";
    /** How many checks in a row must find a stopped timer blocked before it is released. */
    static final int SIGHTINGS = 3;
    /** How often the node checks, in milliseconds. */
    private static final long CHECK_PERIOD_MS = 1_000;

    private final Class<?> followerState;
    private final Field isRunning;
    private final Field stopped;
    /** Stopped timers seen blocked, with how many checks in a row saw them so. Checking thread only. */
    private final Map<Thread, Integer> sightings = new HashMap<>();

    /**
     * @throws IllegalStateException when Ratis's {@code FollowerState} no longer has the fields this
     *                               release relies on
     */
    StoppedFollowerStateRelease() {
        try {
            followerState = Class.forName(FOLLOWER_STATE_CLASS);
            isRunning = followerState.getDeclaredField("isRunning");
            stopped = followerState.getDeclaredField("stopped");
            if (isRunning.getType() != boolean.class || stopped.getType() != CompletableFuture.class) {
                throw new NoSuchFieldException("isRunning is " + isRunning.getType() + ", stopped is " + stopped.getType());
            }
            isRunning.setAccessible(true);
            stopped.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Ratis's " + FOLLOWER_STATE_CLASS + " changed: the release of stopped "
                    + "follower timers (a workaround of a Ratis 3.3.0 deadlock) needs review: " + e, e);
        }
    }

    /**
     * Checks every {@value #CHECK_PERIOD_MS} ms on {@code timers} until they are shut down; a check
     * that fails is logged and the next one runs.
     *
     * @throws IllegalStateException as the constructor does
     */
    static void scheduleOn(ScheduledExecutorService timers, long nodeId) {
        StoppedFollowerStateRelease release = new StoppedFollowerStateRelease();
        timers.scheduleWithFixedDelay(() -> {
            try {
                release.check();
            } catch (RuntimeException e) {
                LOG.error("node {}: checking for stopped follower timers: {}", nodeId, e.toString(), e);
            }
        }, CHECK_PERIOD_MS, CHECK_PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * One check: releases the stopped timers found blocked on {@value #SIGHTINGS} checks in a row.
     *
     * @return how many it released
     */
    int check() {
        Set<Thread> blockedNow = new HashSet<>();
        int released = 0;
        for (Thread t : platformThreads()) {
            if (!followerState.isInstance(t) || t.getState() != Thread.State.BLOCKED || running(t)) {
                continue;
            }
            blockedNow.add(t);
            if (sightings.merge(t, 1, Integer::sum) >= SIGHTINGS) {
                if (stoppedFuture(t).complete(null)) {
                    released++;
                    LOG.warn("released {}: it was stopped but has waited for its Raft server's lock for {} checks; the "
                            + "thread that stopped it may hold that lock while it waits for this one to end (a Ratis "
                            + "3.3.0 deadlock on a learner's promotion)", t.getName(), SIGHTINGS);
                }
                blockedNow.remove(t);
            }
        }
        sightings.keySet().retainAll(blockedNow);
        return released;
    }

    private boolean running(Thread followerStateThread) {
        try {
            return isRunning.getBoolean(followerStateThread);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e); // setAccessible succeeded in the constructor
        }
    }

    @SuppressWarnings("unchecked")
    private CompletableFuture<Void> stoppedFuture(Thread followerStateThread) {
        try {
            return (CompletableFuture<Void>) stopped.get(followerStateThread);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The live platform threads of this JVM (Ratis's timers are platform threads). */
    private static Thread[] platformThreads() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads;
        int n;
        do {
            threads = new Thread[root.activeCount() * 2 + 16];
            n = root.enumerate(threads, true);
        } while (n == threads.length);
        Thread[] live = new Thread[n];
        System.arraycopy(threads, 0, live, 0, n);
        return live;
    }
}
