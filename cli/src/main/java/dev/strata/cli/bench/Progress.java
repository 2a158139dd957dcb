package dev.strata.cli.bench;

import java.io.PrintWriter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A status line while a phase runs, made once a second. On a terminal it is redrawn in place with
 * a carriage return; otherwise (a log file, a CI job) every fifth line is printed, one per 5 s,
 * so the log stays short. Thread-safe: a daemon thread draws the line until {@link #close}.
 */
final class Progress implements AutoCloseable {
    private static final long PERIOD_SECONDS = 1;
    /** Off a terminal, one line in this many is printed. */
    private static final int LOG_EVERY = 5;

    private final PrintWriter out;
    private final boolean terminal;
    private final Supplier<String> line;
    private final ScheduledExecutorService timer;
    private int ticks;
    private int drawnWidth;

    private Progress(PrintWriter out, boolean terminal, Supplier<String> line) {
        this.out = out;
        this.terminal = terminal;
        this.line = line;
        this.timer = Executors.newSingleThreadScheduledExecutor(Threads.daemons("strata-bench-progress"));
    }

    /** Draws {@code line}'s text on {@code out} every second from one second from now. */
    static Progress start(PrintWriter out, boolean terminal, Supplier<String> line) {
        Progress p = new Progress(out, terminal, line);
        p.timer.scheduleAtFixedRate(p::tick, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
        return p;
    }

    private synchronized void tick() {
        String text = line.get();
        ticks++;
        if (terminal) {
            // Spaces over what is left of a longer line drawn before.
            out.print("\r" + text + " ".repeat(Math.max(0, drawnWidth - text.length())));
            drawnWidth = text.length();
            out.flush();
        } else if (ticks % LOG_EVERY == 0) {
            out.println(text);
            out.flush();
        }
    }

    /** Stops drawing; on a terminal the last line stays, ended. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (drawnWidth > 0) {
                out.println();
                out.flush();
            }
        }
    }
}
