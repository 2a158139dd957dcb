package dev.strata.engine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link CrashTest}: writes the deterministic batches of {@link CrashBatches}
 * with {@link WalMode#SYNC} and prints {@code ACK n} after batch n's write returns, until it is
 * killed. Tiny memtables and files make flushes and compactions run while it is killed.
 */
public final class CrashWriter {
    private CrashWriter() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int round = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        try (Engine engine = Engine.open(dir, CrashBatches.options())) {
            System.out.println("OPENED");
            System.out.flush();
            Random rnd = new Random(seed);
            for (int n = 1; ; n++) {
                engine.write(CrashBatches.batch(round, n, rnd));
                System.out.println("ACK " + n);
                System.out.flush();
            }
        } catch (RuntimeException e) {
            System.err.println(new String(("FAILED " + e).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
            System.exit(2);
        }
    }
}
