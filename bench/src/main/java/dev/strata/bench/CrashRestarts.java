package dev.strata.bench;

import dev.strata.cli.bench.MachineInfo;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.testkit.cluster.ProcessCluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code strata-bench recovery --from-crash IMAGE}: restarts a cluster again and again from fresh
 * copies of one {@link CrashImage}, each timed as {@link ClusterRestart} times the restart of the
 * full benchmark, and checks after each that every node holds the same keys, values and revisions.
 * There is no ground truth here (the image has only the nodes' data): the full benchmark is the
 * one that checks every acknowledged command survived.
 */
final class CrashRestarts {
    /** What the restarts measured, as written to JSON. */
    record Report(String startedAt, MachineInfo machine, String image, List<String> nodeJvmOptions,
                  Map<String, String> nodeSettings, List<Result> restarts) {
        void print(PrintStream out) {
            out.println();
            out.println("| restart | serving s | first port s | all ports s | leader s | caught up s | entries replayed | replicas |");
            out.println("|---|---:|---:|---:|---:|---:|---:|---|");
            for (int i = 0; i < restarts.size(); i++) {
                RecoveryReport.Restart r = restarts.get(i).restart();
                out.printf(Locale.ROOT, "| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %s |%n", i + 1, r.servingSeconds(),
                        r.firstUpSeconds(), r.allUpSeconds(), r.leaderSeconds(), r.caughtUpSeconds(), r.replayedEntries(),
                        restarts.get(i).replicasIdentical() ? "identical" : "DIFFER");
            }
            double[] serving = restarts.stream().mapToDouble(r -> r.restart().servingSeconds()).sorted().toArray();
            int n = serving.length;
            double median = n % 2 == 1 ? serving[n / 2] : (serving[n / 2 - 1] + serving[n / 2]) / 2;
            out.printf(Locale.ROOT, "serving after the restart: median %.2f s of %d (min %.2f, max %.2f)%n", median, n,
                    serving[0], serving[n - 1]);
        }
    }

    /** One restart and whether the replicas agreed once it had caught up. */
    record Result(RecoveryReport.Restart restart, boolean replicasIdentical) {}

    private CrashRestarts() {}

    /**
     * Restarts {@code count} times from {@code image}, each in a fresh copy under {@code root}
     * (deleted afterwards unless {@code keep}).
     */
    static List<Result> run(Path image, Path root, boolean keep, int count, Map<String, String> settings, List<String> jvm,
                            Duration timeout) throws IOException, InterruptedException {
        List<Result> results = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            Path dir = root.resolve("restart" + i);
            System.out.printf(Locale.ROOT, "%n== restart %d of %d from %s ==%n", i, count, image);
            CrashImage.restore(image, dir);
            try (ProcessCluster cluster = ProcessCluster.adopt(dir, settings, jvm)) {
                RecoveryReport.Restart restart = new ClusterRestart(cluster, timeout).run();
                boolean identical = RecoveryCommand.replicasIdentical(cluster);
                System.out.printf(Locale.ROOT, "serving %.2f s after the restart (ports open %.2f-%.2f s, leader at %.2f s, "
                                + "every node caught up at %.2f s, up to %d entries replayed); replicas %s%n",
                        restart.servingSeconds(), restart.firstUpSeconds(), restart.allUpSeconds(), restart.leaderSeconds(),
                        restart.caughtUpSeconds(), restart.replayedEntries(), identical ? "identical" : "DIFFER");
                restart.printCpu(System.out);
                results.add(new Result(restart, identical));
                // A graceful stop, so what a node records until it exits (a flight recording given by
                // --node-java-option, say) is written out.
                cluster.memberIds().forEach(cluster::terminate);
            }
            if (!keep) {
                FileLinks.deleteTree(dir);
            }
        }
        return results;
    }
}
