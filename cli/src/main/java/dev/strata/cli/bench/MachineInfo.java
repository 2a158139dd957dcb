package dev.strata.cli.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The machine and JVM a benchmark ran on, for the report: figures mean little without them.
 *
 * @param cores               processors available to the JVM
 * @param physicalMemoryBytes the machine's memory, or -1 when the JVM cannot tell
 * @param maxHeapBytes        the JVM's heap limit
 * @param garbageCollectors   the collectors in use
 * @param jvmArguments        the flags the JVM was started with
 */
public record MachineInfo(int cores, long physicalMemoryBytes, String os, String arch, String jvmVersion, String jvmVendor,
                   long maxHeapBytes, List<String> garbageCollectors, List<String> jvmArguments) {

    /** The machine and JVM this code runs on. */
    public static MachineInfo current() {
        long memory = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize() : -1;
        return new MachineInfo(Runtime.getRuntime().availableProcessors(), memory,
                System.getProperty("os.name") + " " + System.getProperty("os.version"), System.getProperty("os.arch"),
                System.getProperty("java.runtime.version"), System.getProperty("java.vendor"),
                Runtime.getRuntime().maxMemory(),
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
    }
}
