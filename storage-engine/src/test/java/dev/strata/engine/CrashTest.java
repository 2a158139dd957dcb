package dev.strata.engine;

import dev.strata.engine.testing.Seeds;
import dev.strata.engine.vlog.ValueLogId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a writing child JVM with SIGKILL at several points, from right after its open (no batch
 * acknowledged yet, while the open's own flush and compactions may still run) to hundreds of
 * batches in, and checks after each kill that every acknowledged batch is present, that the
 * batches present are exactly a prefix of those written (all-or-nothing, in order: the key range
 * equals a model of that prefix), that the value-log accounting still matches the tables, and
 * that no orphaned value log is left. Rounds share one directory, so later rounds also recover from earlier
 * crashes. The OVERWRITE workload is killed during value-log garbage collection, at random and,
 * in its own test, while a relocation is held between writing the moved values and committing.
 */
class CrashTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(CrashBatches.Workload.class)
    void acknowledgedWritesSurviveSigkillAndBatchesAreAllOrNothing(CrashBatches.Workload workload) throws Exception {
        long seed = Seeds.seed("CrashTest " + workload);
        Random rnd = new Random(seed);
        int[] killAfterAcks = workload == CrashBatches.Workload.APPEND_REPLAY_KEPT
                // Kills right after an open alternate with longer rounds that leave a memtable to replay.
                ? new int[] {40 + rnd.nextInt(100), 0, 1, 150 + rnd.nextInt(100), 0, 5, 900 + rnd.nextInt(600), 1}
                : new int[] {0, 1, 40, 150 + rnd.nextInt(100), 400 + rnd.nextInt(400), 900 + rnd.nextInt(600)};
        List<Long> roundSeeds = new ArrayList<>();
        for (int round = 0; round < killAfterAcks.length; round++) {
            long roundSeed = rnd.nextLong();
            roundSeeds.add(roundSeed);
            int acked = runAndKill(workload, round, roundSeed, killAfterAcks[round], false).acks();
            recoverAndVerify(workload, roundSeeds, acked, "seed=" + seed);
        }
    }

    /**
     * Each round's writer holds the first compaction that relocates values once it has written
     * (and fsynced) a value-log file of them, and is killed there: the moved copies are on disk,
     * the manifest edit that would switch the tables to them is not. Recovery must keep reading
     * the values from the files they were copied from and remove the orphaned copies.
     */
    @Test
    void killedMidRelocationTheUncommittedCopiesAreDiscarded() throws Exception {
        long seed = Seeds.seed("CrashTest relocation");
        Random rnd = new Random(seed);
        List<Long> roundSeeds = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            roundSeeds.add(rnd.nextLong());
            // The bound on batches only stops a writer whose collection never starts.
            Killed killed = runAndKill(CrashBatches.Workload.OVERWRITE, round, roundSeeds.get(round), 100_000, true);
            assertThat(killed.relocatedFile()).as("seed=" + seed + " round=" + round + ": a relocation was held").isNotNull();
            assertThat(dir.resolve(killed.relocatedFile())).as("the relocated values were written before the kill").exists();
            recoverAndVerify(CrashBatches.Workload.OVERWRITE, roundSeeds, killed.acks(), "seed=" + seed);
        }
    }

    /** Opens the engine after a kill in the last of {@code roundSeeds}' rounds and checks every round. */
    private void recoverAndVerify(CrashBatches.Workload workload, List<Long> roundSeeds, int acked, String context)
            throws IOException {
        int last = roundSeeds.size() - 1;
        int valueLogsInVersion;
        try (Engine engine = Engine.open(dir, CrashBatches.options(workload))) {
            for (int r = 0; r <= last; r++) {
                verifyRound(engine, workload, r, roundSeeds.get(r), r == last ? acked : -1,
                        context + " round=" + r + " (killed in round " + last + ")");
            }
            engine.verify();
            engine.waitForCompactions();
            valueLogsInVersion = engine.stats().valueLogs().size();
        }
        assertThat(valueLogFilesOnDisk()).as("no orphaned value logs after recovery").isEqualTo(valueLogsInVersion);
    }

    private long valueLogFilesOnDisk() throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> ValueLogId.parse(p.getFileName().toString()) != null).count();
        }
    }

    /** What the writer had done when it was killed: acknowledged batches, the held relocation's file. */
    private record Killed(int acks, String relocatedFile) {}

    /**
     * Everything this JVM loads classes from, as one class path: the tests may run on the module
     * path (the engine is a module, the test classes patched into it), the child runs without.
     */
    private static String childClassPath() throws Exception {
        List<String> parts = new ArrayList<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            String value = System.getProperty(property);
            if (value != null && !value.isEmpty()) {
                parts.add(value);
            }
        }
        parts.add(Path.of(CrashWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        return String.join(File.pathSeparator, parts);
    }

    /**
     * Starts the writer, waits for {@code acks} acknowledgements (or, when {@code holdRelocation},
     * for a held relocation), and kills it.
     */
    private Killed runAndKill(CrashBatches.Workload workload, int round, long roundSeed, int acks, boolean holdRelocation)
            throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED",
                "-cp", childClassPath(), CrashWriter.class.getName(),
                dir.toString(), workload.name(), Integer.toString(round), Long.toString(roundSeed)));
        if (holdRelocation) {
            command.add("hold-relocation");
        }
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int seen = 0;
        String relocated = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            boolean opened = false;
            for (String line; (line = out.readLine()) != null; ) {
                if (line.equals("OPENED")) {
                    opened = true;
                } else if (line.startsWith("ACK ")) {
                    seen = Integer.parseInt(line.substring(4));
                } else if (line.startsWith("RELOCATED ")) {
                    relocated = line.substring("RELOCATED ".length());
                }
                if (opened && (seen >= acks || relocated != null)) {
                    break;
                }
            }
            assertThat(p.isAlive()).as("writer died before being killed").isTrue();
            p.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no close
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        return new Killed(seen, relocated);
    }

    /**
     * @param acked the highest batch known acknowledged, or -1 for an earlier round (checked again
     *              to see that later crashes did not disturb it)
     */
    private static void verifyRound(Engine engine, CrashBatches.Workload workload, int round, long roundSeed, int acked,
                                    String context) {
        byte[] last = engine.get(CrashBatches.lastKey(round));
        int durable = last == null ? 0 : Integer.parseInt(new String(last, StandardCharsets.UTF_8));
        if (acked >= 0) {
            assertThat(durable).as(context + ": the last acknowledged batch must be durable").isGreaterThanOrEqualTo(acked);
        }
        EngineModelTest.checkScan(engine.scan(CrashBatches.roundStart(round), CrashBatches.roundEnd(round)),
                CrashBatches.expected(workload, round, roundSeed, durable),
                context + ": the key range must be exactly batches 1.." + durable);
    }
}
