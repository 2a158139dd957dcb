package dev.strata.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The CPU time the cluster's server processes spent over the measured run, when they run on this
 * machine and their ids are given ({@code --server-pids}): user plus system time of every thread,
 * from Linux's {@code /proc/PID/stat}, the same yardstick for a Java and a Go server.
 *
 * @param pids        the processes measured
 * @param seconds     the CPU seconds they used together
 * @param microsPerOp CPU microseconds per operation that succeeded; null when none did
 */
public record ServerCpu(List<Long> pids, double seconds, Double microsPerOp) {

    /** The processes' CPU time so far, in nanoseconds; throws when one is gone (or there is no /proc). */
    public static long totalNanos(List<Long> pids) {
        long total = 0;
        for (long pid : pids) {
            try {
                total += ProcStat.cpuNanos(pid);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the CPU time of process " + pid + " (/proc/" + pid
                        + "/stat): " + e.getMessage(), e);
            }
        }
        return total;
    }

    static ServerCpu of(List<Long> pids, long nanos, long ok) {
        return new ServerCpu(List.copyOf(pids), nanos / 1e9, ok == 0 ? null : nanos / 1e3 / ok);
    }
}
