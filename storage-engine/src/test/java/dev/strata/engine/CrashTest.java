package dev.strata.engine;

import dev.strata.engine.testing.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a writing child JVM with SIGKILL at several points (including during its open) and
 * checks after each kill that every acknowledged batch is present in full, that the batches
 * present form a prefix of the ones written (the log is sequential), and that no batch is
 * half-applied. Rounds share one directory, so later rounds also recover from earlier crashes.
 */
class CrashTest {
    @TempDir
    Path dir;

    @Test
    void acknowledgedWritesSurviveSigkillAndBatchesAreAllOrNothing() throws Exception {
        long seed = Seeds.seed("CrashTest");
        Random rnd = new Random(seed);
        int[] killAfterAcks = {0, 1, 40, 150 + rnd.nextInt(100), 400 + rnd.nextInt(400), 900 + rnd.nextInt(600)};
        List<Long> roundSeeds = new ArrayList<>();
        for (int round = 0; round < killAfterAcks.length; round++) {
            long roundSeed = rnd.nextLong();
            roundSeeds.add(roundSeed);
            int acked = runAndKill(round, roundSeed, killAfterAcks[round]);
            try (Engine engine = Engine.open(dir, CrashBatches.options())) {
                for (int r = 0; r <= round; r++) {
                    verifyRound(engine, r, roundSeeds.get(r), r == round ? acked : -1, "seed=" + seed + " round=" + r);
                }
            }
        }
    }

    /** Starts the writer, waits for {@code acks} acknowledgements, kills it; returns the acks seen. */
    private int runAndKill(int round, long roundSeed, int acks) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), CrashWriter.class.getName(),
                dir.toString(), Integer.toString(round), Long.toString(roundSeed))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int seen = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            boolean opened = false;
            for (String line; (line = out.readLine()) != null; ) {
                if (line.equals("OPENED")) {
                    opened = true;
                } else if (line.startsWith("ACK ")) {
                    seen = Integer.parseInt(line.substring(4));
                }
                if (opened && seen >= acks) {
                    break;
                }
            }
            assertThat(p.isAlive()).as("writer died before being killed (exit " + (p.isAlive() ? "" : p.exitValue()) + ")").isTrue();
            p.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no close
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        return seen;
    }

    /**
     * @param acked the highest batch known acknowledged, or -1 when only the prefix property is
     *              checked (an earlier round, already verified once)
     */
    private static void verifyRound(Engine engine, int round, long roundSeed, int acked, String context) {
        byte[] last = engine.get(CrashBatches.lastKey(round));
        int durable = last == null ? 0 : Integer.parseInt(new String(last, StandardCharsets.UTF_8));
        if (acked >= 0) {
            assertThat(durable).as(context + ": the last acknowledged batch must be durable").isGreaterThanOrEqualTo(acked);
        }
        Random rnd = new Random(roundSeed);
        for (int n = 1; n <= durable + 50; n++) {
            CrashBatches.Shape s = CrashBatches.shape(rnd);
            for (int i = 0; i < s.keys(); i++) {
                byte[] got = engine.get(CrashBatches.key(round, n, i));
                boolean deletedLater = i == 0 && n + 3 <= durable;
                if (n <= durable && !deletedLater) {
                    assertThat(got).as(context + " batch " + n + " key " + i + " (durable up to " + durable + ")")
                            .isEqualTo(CrashBatches.value(n, i, s.sizes()[i]));
                } else {
                    assertThat(got).as(context + " batch " + n + " key " + i + " must be absent (durable up to " + durable + ")")
                            .isNull();
                }
            }
        }
    }
}
