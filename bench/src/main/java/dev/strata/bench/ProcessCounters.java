package dev.strata.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this process has used so far, read from the operating system rather than from an engine,
 * so every engine is measured by the same yardstick: CPU time of all its threads, and bytes
 * written. Take one before and one after a piece of work and subtract.
 *
 * <p>Bytes come from Linux's {@code /proc/self/io}: {@code wchar} counts every byte the process
 * passed to write calls (WAL, tables, value logs or blob files, manifests, an engine's own log
 * file; the report's few lines on stdout are noise), whether or not the page cache later drops
 * it; {@code write_bytes} counts the pages it dirtied for the storage device. Both are -1 where
 * the file does not exist.
 *
 * @param cpuNanos          process CPU time, user and system, of every thread
 * @param bytesWritten      {@code wchar}
 * @param storageBytesWritten {@code write_bytes}
 */
record ProcessCounters(long cpuNanos, long bytesWritten, long storageBytesWritten) {
    private static final Path PROC_IO = Path.of("/proc/self/io");

    static ProcessCounters now() {
        long cpu = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
        long wchar = -1;
        long writeBytes = -1;
        try {
            for (String line : Files.readAllLines(PROC_IO)) {
                int colon = line.indexOf(':');
                String name = line.substring(0, colon);
                if (name.equals("wchar")) {
                    wchar = Long.parseLong(line.substring(colon + 1).trim());
                } else if (name.equals("write_bytes")) {
                    writeBytes = Long.parseLong(line.substring(colon + 1).trim());
                }
            }
        } catch (IOException e) {
            // Not Linux, or /proc not mounted: the byte counts stay unknown.
        }
        return new ProcessCounters(cpu, wchar, writeBytes);
    }

    /** What was used between {@code earlier} and this; unknown (-1) stays unknown. */
    ProcessCounters minus(ProcessCounters earlier) {
        return new ProcessCounters(difference(cpuNanos, earlier.cpuNanos), difference(bytesWritten, earlier.bytesWritten),
                difference(storageBytesWritten, earlier.storageBytesWritten));
    }

    private static long difference(long later, long earlier) {
        return later < 0 || earlier < 0 ? -1 : later - earlier;
    }
}
