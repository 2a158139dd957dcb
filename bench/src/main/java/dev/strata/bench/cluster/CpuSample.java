package dev.strata.bench.cluster;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * CPU time used so far by a system's server processes (summed) and by this driver; take one at
 * each end of a measured window and subtract.
 *
 * @param serverNanos the servers' CPU time, or -1 when no process ids were given or one could not be read
 * @param driverNanos this process's CPU time, or -1 when the JVM cannot tell
 */
record CpuSample(long serverNanos, long driverNanos) {

    /** CPU time used so far by the processes {@code serverPids} and by this one. */
    static CpuSample now(List<Long> serverPids) {
        long server = serverPids.isEmpty() ? -1 : 0;
        for (long pid : serverPids) {
            try {
                server += ProcStat.cpuNanos(pid);
            } catch (IOException | RuntimeException e) {
                server = -1; // a server died or is not ours to read: unknown, never a made-up figure
                break;
            }
        }
        long driver = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
        return new CpuSample(server, driver);
    }

    /** What was used between {@code earlier} and this; unknown stays unknown (-1). */
    CpuSample minus(CpuSample earlier) {
        return new CpuSample(difference(serverNanos, earlier.serverNanos), difference(driverNanos, earlier.driverNanos));
    }

    private static long difference(long later, long earlier) {
        return later < 0 || earlier < 0 ? -1 : later - earlier;
    }
}
