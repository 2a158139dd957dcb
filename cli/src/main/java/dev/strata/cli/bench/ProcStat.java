package dev.strata.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time of another process, from Linux's {@code /proc/PID/stat}: {@code utime} plus
 * {@code stime} (fields 14 and 15, every thread, in clock ticks), which measures a Go server and
 * a Java one by the same yardstick.
 *
 * <p>Field 2 is the command name in parentheses, and the name may itself hold spaces and
 * parentheses ({@code (my (odd) name)}); the kernel writes nothing after the last {@code ')'}
 * but numbers, so the fields are counted from there.
 */
public final class ProcStat {
    /** Clock ticks per second ({@code getconf CLK_TCK}); 100 on every Linux in common use. */
    public static final long CLOCK_TICKS = clockTicks();

    private ProcStat() {}

    /**
     * {@code utime + stime} of one line of {@code /proc/PID/stat}, in clock ticks.
     *
     * @throws IllegalArgumentException when the line is not in that format
     */
    public static long cpuTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + stat);
        }
        // After ") ": field 3 (state) is token 0, so field n is token n - 3.
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        if (fields.length < 13) {
            throw new IllegalArgumentException("too few fields in /proc/PID/stat line: " + stat);
        }
        return Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
    }

    /**
     * The CPU time process {@code pid} has used, in nanoseconds.
     *
     * @throws IOException when there is no such process (or no /proc)
     */
    public static long cpuNanos(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return cpuTicks(stat) * (1_000_000_000L / CLOCK_TICKS);
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
                long ticks = Long.parseLong(out);
                if (ticks > 0 && 1_000_000_000L % ticks == 0) {
                    return ticks;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // no getconf: the usual value below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
