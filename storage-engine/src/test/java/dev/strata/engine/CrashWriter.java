package dev.strata.engine;

import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link CrashTest}: writes the deterministic batches of {@link CrashBatches}
 * with {@link WalMode#SYNC} and prints {@code ACK n} after batch n's write returns, until it is
 * killed. Tiny memtables and files make flushes, compactions and value-log garbage collection
 * run while it is killed.
 */
public final class CrashWriter {
    private CrashWriter() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        CrashBatches.Workload workload = CrashBatches.Workload.valueOf(args[1]);
        int round = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        try (Engine engine = Engine.open(dir, CrashBatches.options(workload))) {
            System.out.println("OPENED");
            System.out.flush();
            Random rnd = new Random(seed);
            for (int n = 1; ; n++) {
                engine.write(CrashBatches.batch(workload, round, n, rnd, null));
                System.out.println("ACK " + n);
                System.out.flush();
            }
        } catch (RuntimeException e) {
            System.err.println("FAILED " + e);
            System.exit(2);
        }
    }
}
