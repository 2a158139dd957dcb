package dev.strata.it;

import dev.strata.server.config.ConfigKey;
import dev.strata.server.config.ConfigKeys;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Strata node as a real process ({@code dev.strata.server.Main} on this test's classpath),
 * for what one JVM cannot do: a kill -9 that leaves the engine unflushed.
 */
final class ServerProcess {
    private final Process process;
    private final Path log;

    private ServerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts a node with {@code config} given as flags; its output goes to {@code log} (appended). */
    static ServerProcess start(Map<String, String> config, Path log) {
        return start(config, Map.of(), log);
    }

    /**
     * Starts a node with {@code config} given as flags and {@code env} added to this JVM's
     * environment (as a container's env would be: {@code STRATA_*} keys, {@code POD_NAME}).
     */
    static ServerProcess start(Map<String, String> config, Map<String, String> env, Path log) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                "dev.strata.server.Main"));
        config.forEach((name, value) -> {
            ConfigKey key = ConfigKeys.byName(name);
            command.add(key.flag() + "=" + value);
        });
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(env);
            Process p = builder.start();
            return new ServerProcess(p, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** SIGKILL: no shutdown hook runs, the engine's memtable is lost, only what is on disk remains. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the server process did not die within 30 s of SIGKILL");
        }
    }

    /** SIGTERM and wait for the graceful shutdown. */
    void terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the server process did not stop within 60 s of SIGTERM");
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * Lowers the process's file-size limit (RLIMIT_FSIZE): a write past {@code bytes} into any
     * file then fails with EFBIG, as a full disk fails it with ENOSPC.
     */
    void limitFileSize(long bytes) throws IOException, InterruptedException {
        Process prlimit = new ProcessBuilder("prlimit", "--pid", Long.toString(process.pid()), "--fsize=" + bytes)
                .redirectErrorStream(true).start();
        String out = new String(prlimit.getInputStream().readAllBytes());
        if (prlimit.waitFor() != 0) {
            throw new IOException("prlimit failed: " + out);
        }
    }

    /** Waits for the process to end by itself and returns its exit code. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the server process did not end within " + timeout);
        }
        return process.exitValue();
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
