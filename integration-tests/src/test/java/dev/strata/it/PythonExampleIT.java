package dev.strata.it;

import dev.strata.testkit.Ports;
import dev.strata.testkit.cluster.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Python example ({@code examples/python}) against a three-node cluster: its {@code run.sh}
 * makes a venv under {@code target/}, installs the pinned requirements from PyPI (once: the venv
 * is reused while requirements.txt is unchanged), generates the stubs from {@code proto/} and
 * runs {@code strata_example.py}, which checks every answer itself and exits non-zero on the
 * first unexpected one. The endpoint list starts with a port nothing listens on, so the
 * client's failover is exercised too; then the client's own failover tests run against fakes.
 *
 * <p>Skipped, with the reason, when the machine has no {@code python3} (3.9 or newer) that
 * can make venvs. Every process is bounded in time and killed, with its children, on timeout.
 */
class PythonExampleIT {
    /** Creating the venv and installing the requirements from PyPI is most of it (about 90 s when nothing is cached). */
    private static final Duration RUN_BOUND = Duration.ofMinutes(7);
    private static final Duration UNIT_TEST_BOUND = Duration.ofMinutes(1);
    /** The example's writes: 5 puts, 1 overwrite, the large put and its delete, the counter put, 2 Txns, 1 delete. */
    private static final int EXAMPLE_WRITES = 12;
    /** LARGE_VALUE in strata_example.py: above gRPC's default 4 MiB response limit. */
    private static final int EXAMPLE_LARGE_VALUE = 6 << 20;

    @TempDir
    Path dir;
    private InProcessCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theExampleRunsItsChecksAgainstAThreeNodeClusterStartingAtADeadEndpoint() throws Exception {
        String python = usablePython();
        Path example = exampleDir();
        Path target = Path.of("target").toAbsolutePath();
        Map<String, String> env = Map.of(
                "PYTHON", python,
                "STRATA_PY_VENV", target.resolve("python-venv").toString(),
                "STRATA_PY_GEN", target.resolve("python-gen").toString(),
                "PYTHONDONTWRITEBYTECODE", "1");

        // The server's own value limits, not the tests' smaller ones: the example puts a value
        // above gRPC's default 4 MiB response limit, as a user's first large value would be.
        cluster = InProcessCluster.start(dir, 3, InProcessCluster.defaultValueLimits());
        long before = cluster.status(1).getCommitIndex();
        String dead = "127.0.0.1:" + Ports.free();
        String endpoints = dead + "," + List.of(1L, 2L, 3L).stream()
                .map(id -> cluster.node(id).clientAddress()).collect(Collectors.joining(","));

        Result run = run(List.of("bash", example.resolve("run.sh").toString(), "--endpoints", endpoints),
                example, env, RUN_BOUND, dir.resolve("run.log"));
        assertThat(run.exitCode()).as("run.sh exit code; its output:%n%s", run.output()).isZero();
        assertThat(run.output())
                .contains("trying " + cluster.node(1).clientAddress())
                .contains("OK: every answer was as expected");
        assertThat(run.output()).as("the large-value step ran")
                .contains("large -> " + EXAMPLE_LARGE_VALUE + " bytes");
        cluster.awaitCaughtUp(1);
        assertThat(cluster.status(1).getCommitIndex() - before).as("log entries the example wrote")
                .isGreaterThanOrEqualTo(EXAMPLE_WRITES);
        assertThat(cluster.localContents(1)).as("what the example left behind").isEmpty();

        Result unit = run(List.of(target.resolve("python-venv/bin/python").toString(), "-m", "unittest", "-v", "test_strata_client"),
                example, env, UNIT_TEST_BOUND, dir.resolve("unittest.log"));
        assertThat(unit.exitCode()).as("python -m unittest exit code; its output:%n%s", unit.output()).isZero();
    }

    /** python3 (or $PYTHON) if it is 3.9 or newer and has venv with pip; the test is skipped otherwise. */
    private static String usablePython() throws InterruptedException {
        String python = System.getenv().getOrDefault("PYTHON", "python3");
        String why = whyUnusable(python);
        assumeTrue(why == null, () -> "the Python example is not tested: " + python + " " + why);
        return python;
    }

    /** Why {@code python} cannot run the example, or null when it can. */
    private static String whyUnusable(String python) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(python, "-c",
                    "import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 9) else 3)")
                    .redirectErrorStream(true).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "did not answer within 60 s";
            }
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return switch (p.exitValue()) {
                case 0 -> null;
                case 3 -> "is older than 3.9";
                default -> "has no venv or ensurepip module (" + out + ")";
            };
        } catch (IOException e) {
            return "cannot be run (" + e.getMessage() + ")";
        }
    }

    /** examples/python of this checkout; Failsafe runs in the module's directory. */
    private static Path exampleDir() {
        Path example = Path.of("").toAbsolutePath().getParent().resolve("examples/python");
        assertThat(example.resolve("run.sh")).as("the Python example beside this module").exists();
        return example;
    }

    private record Result(int exitCode, String output) {}

    /** Runs {@code command} with its output in {@code log}; on timeout kills it and its children and fails. */
    private static Result run(List<String> command, Path workDir, Map<String, String> env, Duration bound, Path log)
            throws InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command))
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        boolean finished = p.waitFor(bound.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        String output;
        try {
            output = Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("$ " + String.join(" ", command) + "\n" + output);
        assertThat(finished).as("%s finished within %s s; its output:%n%s", command, bound.toSeconds(), output).isTrue();
        return new Result(p.exitValue(), output);
    }
}
