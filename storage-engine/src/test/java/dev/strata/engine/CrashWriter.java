package dev.strata.engine;

import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link CrashTest}: writes the deterministic batches of {@link CrashBatches}
 * with {@link WalMode#SYNC} and prints {@code ACK n} after batch n's write returns, until it is
 * killed. Tiny memtables and files make flushes, compactions and value-log garbage collection
 * run while it is killed. With a fifth argument {@code hold-relocation}, the first value-log
 * file that garbage collection fills with relocated values is announced
 * ({@code RELOCATED <file name>}) and its compaction is held there, written but not committed,
 * so the kill lands in the middle of a relocation.
 */
public final class CrashWriter {
    private CrashWriter() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        CrashBatches.Workload workload = CrashBatches.Workload.valueOf(args[1]);
        int round = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        boolean holdRelocation = args.length > 4 && args[4].equals("hold-relocation");
        EngineOptions options = CrashBatches.options(workload);
        if (holdRelocation) {
            options = options.toBuilder().eventListener(new EngineEventListener() {
                @Override
                public void onValueLogFileCreated(ValueLogFileCreated event) {
                    if (event.relocatedBytes() > 0) {
                        System.out.println("RELOCATED " + event.fileName());
                        System.out.flush();
                        holdUntilKilled();
                    }
                }
            }).build();
        }
        try (Engine engine = Engine.open(dir, options)) {
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

    private static void holdUntilKilled() {
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                // The engine interrupts nothing; keep holding until SIGKILL.
            }
        }
    }
}
