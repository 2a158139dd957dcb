package dev.strata.bench;

import dev.strata.bench.cluster.JitWarmUp;
import dev.strata.cli.bench.ProcStat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU a JVM process has used so far, split by what its threads do: HotSpot's JIT compilers,
 * its garbage collector, and the rest (the application, and HotSpot's own smaller threads). Read
 * from {@code /proc/PID/task/TID/stat} of every live thread, so a thread that already ended is
 * missing from the split, though not from {@code totalSeconds} ({@code /proc/PID/stat}).
 */
record ThreadCpu(double totalSeconds, double compilerSeconds, double gcSeconds) {
    /**
     * Reads process {@code pid}'s threads.
     *
     * @throws IOException when the process is gone (or there is no /proc)
     */
    static ThreadCpu of(long pid) throws IOException {
        long compiler = 0;
        long gc = 0;
        try (Stream<Path> threads = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path thread : threads.toList()) {
                try {
                    String comm = Files.readString(thread.resolve("comm")).strip();
                    long ticks = ProcStat.cpuTicks(Files.readString(thread.resolve("stat")));
                    if (JitWarmUp.isCompilerThread(comm)) {
                        compiler += ticks;
                    } else if (isCollectorThread(comm)) {
                        gc += ticks;
                    }
                } catch (NoSuchFileException ended) {
                    // the thread ended between the listing and the read
                }
            }
        }
        double perTick = 1.0 / ProcStat.CLOCK_TICKS;
        return new ThreadCpu(ProcStat.cpuNanos(pid) / 1e9, compiler * perTick, gc * perTick);
    }

    /** G1's threads as HotSpot names them: workers, concurrent marking and refinement, the service thread. */
    static boolean isCollectorThread(String comm) {
        return comm.startsWith("GC Thread") || comm.startsWith("G1 ");
    }
}
