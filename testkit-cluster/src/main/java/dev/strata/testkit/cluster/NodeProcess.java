package dev.strata.testkit.cluster;

import dev.strata.server.config.ConfigKey;
import dev.strata.server.config.ConfigKeys;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Strata node as a real operating-system process ({@code dev.strata.server.Main} on this
 * JVM's class path), so faults are real: SIGKILL leaves an unflushed engine behind, SIGSTOP
 * freezes every thread, a file-size limit makes the disk refuse writes.
 */
public final class NodeProcess {
    /**
     * The JVM flags of a test node: a small heap, the serial collector and C1 only, so several
     * nodes start fast and stay light on a shared machine.
     */
    public static final List<String> TEST_JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /** What the server logs when its stop got stuck and its watchdog ended it (see ShutdownWatchdog). */
    private static final String STUCK_STOP = "did not finish within";

    private final Process process;
    private final Path log;
    private volatile boolean paused;

    private NodeProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts a node with {@code config} (keys by name) given as flags; its output is appended to {@code log}. */
    public static NodeProcess start(Map<String, String> config, Path log) {
        return start(config, log, TEST_JVM_OPTIONS);
    }

    /**
     * Starts a node as {@link #start(Map, Path)} does, with {@code jvmOptions} (heap, collector,
     * compiler) instead of {@link #TEST_JVM_OPTIONS}; the flags for native access are added either way.
     */
    public static NodeProcess start(Map<String, String> config, Path log, List<String> jvmOptions) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-Djdk.util.jar.enableMultiRelease=false"); // zstd-jni's JNI binding, as bin/lib/server.sh chooses
        if (Runtime.version().feature() >= 23) {
            command.add("--sun-misc-unsafe-memory-access=allow"); // the Netty that Ratis shades, as bin/strata-server does
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.strata.server.Main"));
        config.forEach((name, value) -> {
            ConfigKey key = ConfigKeys.byName(name);
            if (key == null) {
                throw new IllegalArgumentException("unknown configuration key " + name);
            }
            command.add(key.flag() + "=" + value);
        });
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new NodeProcess(p, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    public boolean paused() {
        return paused;
    }

    /** SIGKILL: no shutdown hook runs; only what reached the disk survives. */
    public void kill9() {
        process.destroyForcibly();
        awaitExit(30, "SIGKILL");
        paused = false;
    }

    /**
     * SIGTERM and wait for the graceful shutdown (flush, leadership handed over).
     *
     * @throws IllegalStateException if the stop got stuck: the node's watchdog ended it, or it
     *                               did not end within 90 s
     */
    public void terminate() {
        resume();
        long logBefore = logSize();
        process.destroy();
        if (!waitFor(90)) {
            // The node's own watchdog should have ended it; if not, a thread dump (the JVM
            // prints it into the node's log on SIGQUIT) is the evidence of what it is stuck on.
            signal("QUIT");
            waitFor(2);
            process.destroyForcibly();
            awaitExit(30, "SIGKILL after an ignored SIGTERM");
            throw new IllegalStateException("node process " + pid() + " did not stop within 90 s of SIGTERM");
        }
        if (logSince(logBefore).contains(STUCK_STOP)) {
            throw new IllegalStateException("node process " + pid() + " got stuck stopping after SIGTERM and its watchdog "
                    + "ended it; its log has the threads' stacks");
        }
    }

    private long logSize() {
        try {
            return Files.size(log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + log, e);
        }
    }

    private String logSince(long offset) {
        try (FileChannel in = FileChannel.open(log, StandardOpenOption.READ)) {
            ByteBuffer tail = ByteBuffer.allocate((int) Math.max(0, in.size() - offset));
            in.read(tail, offset);
            return new String(tail.array(), 0, tail.position(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
    }

    /** Whether the process has exited, or exits within {@code timeout} (a node that stops itself takes a moment). */
    public boolean exitsWithin(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for node process " + pid(), e);
        }
    }

    /** SIGSTOP: every thread freezes, sockets stay open, peers see a silent node. */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT after {@link #pause}. */
    public void resume() {
        if (paused && alive()) {
            signal("CONT");
        }
        paused = false;
    }

    /**
     * Sets the largest file this process may write (RLIMIT_FSIZE, {@code -1} for unlimited): a
     * write past it fails with EFBIG, as a full disk fails writes (the JVM ignores SIGXFSZ).
     */
    public void limitFileSize(long bytes) {
        run("prlimit", "--pid", Long.toString(pid()), "--fsize=" + (bytes < 0 ? "unlimited" : Long.toString(bytes)));
    }

    private void signal(String name) {
        run("kill", "-" + name, Long.toString(pid()));
    }

    private static void run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output.strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", command) + " could not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        }
    }

    private void awaitExit(int seconds, String after) {
        if (!waitFor(seconds)) {
            throw new IllegalStateException("node process " + pid() + " did not exit within " + seconds + " s of " + after);
        }
    }

    private boolean waitFor(int seconds) {
        try {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for node process " + pid(), e);
        }
    }
}
