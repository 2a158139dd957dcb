package dev.strata.bench.cluster;

import dev.strata.cli.bench.ProcStat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Whether the JVMs of a cluster have finished warming up, judged by their JIT compiler threads:
 * warm once, over a pass of load, those threads used less than {@link #QUIET_SHARE} of the
 * pass's wall-clock time (summed over every node). With three nodes on two slow cores the C2
 * compilers keep working for minutes of load, and throughput rises all that time; a
 * throughput-based rule stops early on the noise between passes, the compilers' CPU does not.
 *
 * <p>The threads are found by name in {@code /proc/PID/task/TID/comm}: HotSpot names them
 * {@code C1 CompilerThread<n>} and {@code C2 CompilerThread<n>}, which the kernel cuts to 15
 * characters.
 */
public final class JitWarmUp {
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
    public static boolean isCompilerThread(String comm) {
        String name = comm.strip();
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    /**
     * The CPU time each JIT compiler thread of these processes has used so far, in clock ticks,
     * by {@code /proc} path of the thread. HotSpot may start and stop compiler threads as its
     * queue grows and shrinks, so compare two readings with {@link #usedBetween}, not their sums.
     *
     * @throws IOException when a process is gone (or there is no /proc)
     */
    static Map<Path, Long> compilerTicks(List<Long> pids) throws IOException {
        Map<Path, Long> ticks = new HashMap<>();
        for (long pid : pids) {
            Path tasks = Path.of("/proc", Long.toString(pid), "task");
            try (Stream<Path> threads = Files.list(tasks)) {
                for (Path thread : threads.toList()) {
                    long used = compilerThreadTicks(thread);
                    if (used >= 0) {
                        ticks.put(thread, used);
                    }
                }
            }
        }
        return ticks;
    }

    /**
     * The compilers' CPU between two readings, in nanoseconds: what each thread alive at the
     * second reading used since the first (all of it for a thread started in between). A thread
     * that ended in between takes what it used with it, so this undercounts then: see
     * {@link #anyEnded}.
     */
    static long usedBetween(Map<Path, Long> before, Map<Path, Long> after) {
        long ticks = 0;
        for (Map.Entry<Path, Long> thread : after.entrySet()) {
            ticks += thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
        }
        return ticks * (1_000_000_000L / ProcStat.CLOCK_TICKS);
    }

    /**
     * Whether a compiler thread of the first reading is gone at the second: its CPU since the
     * first is then unknown, so a pass in which one ended cannot be judged quiet.
     */
    static boolean anyEnded(Map<Path, Long> before, Map<Path, Long> after) {
        return !after.keySet().containsAll(before.keySet());
    }

    /** A thread's CPU ticks, or -1 when it is not a compiler thread or has ended. */
    private static long compilerThreadTicks(Path thread) throws IOException {
        try {
            if (!isCompilerThread(Files.readString(thread.resolve("comm")))) {
                return -1;
            }
            return ProcStat.cpuTicks(Files.readString(thread.resolve("stat")));
        } catch (NoSuchFileException ended) {
            return -1; // the thread ended between the listing and the read
        }
    }
}
