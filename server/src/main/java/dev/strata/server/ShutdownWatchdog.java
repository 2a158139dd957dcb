package dev.strata.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Bounds a graceful stop. If the stop has not finished by its deadline, logs every thread's
 * stack (what it is stuck on is the only clue to why) and ends the process at once.
 *
 * <p>Ending it is safe: everything a node acknowledged is in its fsynced Raft log, and a node
 * restarts from a kill -9 by replaying that log, as it must after any crash. A stop that never
 * ends is worse: the node holds its ports and its data directory, so it cannot be restarted,
 * and a supervisor's kill later leaves no trace of the cause.
 */
final class ShutdownWatchdog {
    private static final Logger LOG = LoggerFactory.getLogger(ShutdownWatchdog.class);

    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread watcher;

    private ShutdownWatchdog(String what, Duration deadline, Runnable halt) {
        watcher = new Thread(() -> watch(what, deadline, halt), "strata-shutdown-watchdog");
        watcher.setDaemon(true);
    }

    /**
     * Starts watching a stop that should finish within {@code deadline}; past it, logs the
     * threads and runs {@code halt}.
     */
    static ShutdownWatchdog start(String what, Duration deadline, Runnable halt) {
        ShutdownWatchdog w = new ShutdownWatchdog(what, deadline, halt);
        w.watcher.start();
        return w;
    }

    /** The stop finished: nothing to do. */
    void finished() {
        finished.countDown();
    }

    /** The thread that waits for the deadline (tests join it). */
    Thread watcher() {
        return watcher;
    }

    private void watch(String what, Duration deadline, Runnable halt) {
        try {
            if (finished.await(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        LOG.error("{} did not finish within {} s; ending the process now (the Raft log holds every acknowledged write). "
                + "Threads:\n{}", what, deadline.toSeconds(), threadDump());
        halt.run();
    }

    /** Every live thread's state, locks and full stack, as jstack prints them. */
    static String threadDump() {
        StringBuilder out = new StringBuilder();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            out.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
            if (t.getLockName() != null) {
                out.append(" on ").append(t.getLockName());
            }
            if (t.getLockOwnerName() != null) {
                out.append(" owned by \"").append(t.getLockOwnerName()).append('"');
            }
            out.append('\n');
            for (StackTraceElement frame : t.getStackTrace()) {
                out.append("\tat ").append(frame).append('\n');
            }
            out.append('\n');
        }
        return out.toString();
    }
}
