package dev.strata.bench.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One server process the benchmark started (an etcd member, a Strata node), with its output in
 * a log file. It is stopped by its own process id only: SIGTERM, then SIGKILL if it has not
 * exited within the grace period; never by name, so nobody else's server is touched.
 */
final class ServerProcess {
    private final String name;
    private final Process process;
    private final Path log;

    private ServerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command} with its output appended to {@code log}. Environment variables
     * starting with {@code envPrefix} are removed first ({@code ETCD_}, {@code STRATA_}): both
     * servers read their configuration from such variables, and a run must get the settings it
     * reports, not whatever the shell held.
     */
    static ServerProcess start(String name, List<String> command, Path log, String envPrefix) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().keySet().removeIf(k -> k.startsWith(envPrefix));
        try {
            return new ServerProcess(name, builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Sends SIGTERM to this process. */
    void terminate() {
        process.destroy();
    }

    /** Waits up to {@code grace} for it to exit, then kills it (SIGKILL) and waits for that. */
    void awaitOrKill(Duration grace) {
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The last {@code lines} lines of its log, for an error message. */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ", log " + log + ")";
    }
}
