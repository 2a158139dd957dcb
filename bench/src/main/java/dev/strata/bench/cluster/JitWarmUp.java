package dev.strata.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Whether the JVMs of a cluster have finished warming up, judged by their JIT compiler threads:
 * warm once, over a pass of load, those threads used less than {@link #QUIET_SHARE} of the
 * pass's wall-clock time (summed over every node). With three nodes on two slow cores the C2
 * compilers keep working for about ten minutes of load, and throughput rises all that time; a
 * throughput-based rule stops early on the noise between passes, the compilers' CPU does not.
 *
 * <p>The threads are found by name in {@code /proc/PID/task/TID/comm}: HotSpot names them
 * {@code C1 CompilerThread<n>} and {@code C2 CompilerThread<n>}, which the kernel cuts to 15
 * characters.
 */
final class JitWarmUp {
    /** The compilers' CPU, as a share of one core, under which a pass counts as warm. */
    static final double QUIET_SHARE = 0.05;

    private JitWarmUp() {}

    /** Whether compilers that used {@code compilerNanos} of CPU over {@code wallNanos} of load were quiet. */
    static boolean quiet(long compilerNanos, long wallNanos) {
        if (wallNanos <= 0) {
            throw new IllegalArgumentException("wall-clock time must be positive, was " + wallNanos);
        }
        return compilerNanos < QUIET_SHARE * wallNanos;
    }

    /** Whether a thread's name ({@code comm}) is one of HotSpot's JIT compiler threads. */
    static boolean isCompilerThread(String comm) {
        String name = comm.strip();
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    /**
     * The CPU time the JIT compiler threads of these processes have used so far, in nanoseconds.
     * A compiler thread that has exited takes its time with it, so compare two readings of the
     * same threads: on a 2-core machine HotSpot keeps one C1 and one C2 thread throughout.
     *
     * @throws IOException when a process is gone (or there is no /proc)
     */
    static long compilerCpuNanos(List<Long> pids) throws IOException {
        long ticks = 0;
        for (long pid : pids) {
            Path tasks = Path.of("/proc", Long.toString(pid), "task");
            try (Stream<Path> threads = Files.list(tasks)) {
                for (Path thread : threads.toList()) {
                    ticks += compilerTicks(thread);
                }
            }
        }
        return ticks * (1_000_000_000L / ProcStat.CLOCK_TICKS);
    }

    private static long compilerTicks(Path thread) throws IOException {
        try {
            if (!isCompilerThread(Files.readString(thread.resolve("comm")))) {
                return 0;
            }
            return ProcStat.cpuTicks(Files.readString(thread.resolve("stat")));
        } catch (NoSuchFileException exited) {
            return 0; // the thread ended between the listing and the read
        }
    }
}
