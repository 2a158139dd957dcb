package dev.strata.bench.cluster;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * What a system's server processes (summed) and this driver have used so far: CPU time, and the
 * servers' bytes written to storage. Take one at each end of a measured window and subtract.
 *
 * @param serverNanos      the servers' CPU time, or -1 when no process ids were given or one could not be read
 * @param serverWriteBytes the servers' bytes written to storage ({@link ProcIo}), or -1 when unknown
 * @param driverNanos      this process's CPU time, or -1 when the JVM cannot tell
 */
record ResourceSample(long serverNanos, long serverWriteBytes, long driverNanos) {

    /** What the processes {@code serverPids} and this one have used so far. */
    static ResourceSample now(List<Long> serverPids) {
        long cpu = serverPids.isEmpty() ? -1 : 0;
        long written = cpu;
        for (long pid : serverPids) {
            try {
                cpu = cpu < 0 ? -1 : cpu + ProcStat.cpuNanos(pid);
            } catch (IOException | RuntimeException e) {
                cpu = -1; // a server died or is not ours to read: unknown, never a made-up figure
            }
            try {
                written = written < 0 ? -1 : written + ProcIo.writeBytes(pid);
            } catch (IOException | RuntimeException e) {
                written = -1;
            }
        }
        long driver = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
        return new ResourceSample(cpu, written, driver);
    }

    /** What was used between {@code earlier} and this; unknown stays unknown (-1). */
    ResourceSample minus(ResourceSample earlier) {
        return new ResourceSample(difference(serverNanos, earlier.serverNanos),
                difference(serverWriteBytes, earlier.serverWriteBytes), difference(driverNanos, earlier.driverNanos));
    }

    private static long difference(long later, long earlier) {
        return later < 0 || earlier < 0 ? -1 : later - earlier;
    }
}
