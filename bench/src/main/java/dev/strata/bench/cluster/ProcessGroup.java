package dev.strata.bench.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Every server process one benchmark started, so they are all stopped however it ends: at the
 * end, on an exception, or from a shutdown hook on Ctrl-C. Stopping is idempotent.
 *
 * <p>Thread-safe.
 */
final class ProcessGroup {
    private static final Duration GRACE = Duration.ofSeconds(20);

    private final List<ServerProcess> processes = new ArrayList<>();
    private boolean stopped;

    /** Adds {@code p}; a group already stopped stops it at once. */
    synchronized ServerProcess add(ServerProcess p) {
        processes.add(p);
        if (stopped) {
            p.terminate();
            p.awaitOrKill(GRACE);
        }
        return p;
    }

    /** Sends SIGTERM to every process, then waits for each (SIGKILL after a grace period). */
    synchronized void stopAll() {
        if (stopped) {
            return;
        }
        stopped = true;
        processes.forEach(ServerProcess::terminate);
        processes.forEach(p -> p.awaitOrKill(GRACE));
    }
}
