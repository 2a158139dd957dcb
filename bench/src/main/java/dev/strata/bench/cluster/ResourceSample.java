package dev.strata.bench.cluster;

import dev.strata.cli.bench.ProcStat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;

/**
 * What a system's server processes (summed) and this driver have used so far: CPU time, the
 * servers' bytes written to storage, and the bytes their device wrote. Take one at each end of a
 * measured window and subtract.
 *
 * @param serverNanos      the servers' CPU time, or -1 when no process ids were given or one could not be read
 * @param serverWriteBytes the servers' bytes written to storage ({@link ProcIo}), or -1 when unknown
 * @param deviceWriteBytes the bytes the servers' block device wrote ({@link BlockDevice}), or -1 when unknown
 * @param driverNanos      this process's CPU time, or -1 when the JVM cannot tell
 */
record ResourceSample(long serverNanos, long serverWriteBytes, long deviceWriteBytes, long driverNanos) {

    /** What the processes {@code serverPids}, their {@code device} and this process have used so far. */
    static ResourceSample now(List<Long> serverPids, Optional<BlockDevice> device) {
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
        long deviceWritten;
        try {
            deviceWritten = device.isPresent() ? device.get().writtenBytes() : -1;
        } catch (IOException | RuntimeException e) {
            deviceWritten = -1;
        }
        long driver = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
        return new ResourceSample(cpu, written, deviceWritten, driver);
    }

    /** What was used between {@code earlier} and this; unknown stays unknown (-1). */
    ResourceSample minus(ResourceSample earlier) {
        return new ResourceSample(difference(serverNanos, earlier.serverNanos),
                difference(serverWriteBytes, earlier.serverWriteBytes), difference(deviceWriteBytes, earlier.deviceWriteBytes),
                difference(driverNanos, earlier.driverNanos));
    }

    private static long difference(long later, long earlier) {
        return later < 0 || earlier < 0 ? -1 : later - earlier;
    }
}
