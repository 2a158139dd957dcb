package dev.strata.bench;

import dev.strata.client.StrataClient;
import dev.strata.it.cluster.ProcessCluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The class-data sharing archive that node processes map at start, as {@code bin/strata-server}
 * keeps one beside the server's jar, so that a benchmark times the nodes as they start in use.
 *
 * <p>It is trained as the launcher's is: the nodes of a three-node cluster are asked to write it
 * (each writes its own file and renames it over the archive, see the server's ClassDataArchive)
 * 30 s after they start serving, while they take writes and reads.
 */
final class ServerClassArchive {
    private static final Duration POLL_EVERY = Duration.ofMillis(200);

    private ServerClassArchive() {}

    /**
     * Trains an archive in {@code dir} with nodes of {@code jvmOptions} and {@code settings}.
     *
     * @return the JVM options that map it (the given ones plus the archive's), for every later node
     * @throws IllegalStateException if no node wrote the archive within {@code timeout}
     */
    static List<String> train(Path dir, Map<String, String> settings, List<String> jvmOptions, Duration timeout)
            throws Exception {
        Path archive = dir.resolve("strata-server.jsa").toAbsolutePath();
        List<String> training = new ArrayList<>(jvmOptions);
        training.add("-XX:+RecordDynamicDumpInfo");
        training.add("-Dstrata.class-data-archive=" + archive);
        try (ProcessCluster cluster = ProcessCluster.start(dir.resolve("training"), 3, settings, training);
             StrataClient client = StrataClient.builder().endpoints(cluster.clientAddresses()).build()) {
            cluster.awaitLeader(timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            for (int i = 0; !Files.isRegularFile(archive); i++) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no node wrote the class-data archive " + archive + " within "
                            + timeout.toSeconds() + " s");
                }
                byte[] key = ("training-" + i % 100).getBytes(StandardCharsets.US_ASCII);
                client.put(key, key);
                client.get(key);
                LockSupport.parkNanos(POLL_EVERY.toNanos());
            }
        }
        return List.copyOf(withArchive(jvmOptions, archive));
    }

    private static List<String> withArchive(List<String> jvmOptions, Path archive) {
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-XX:SharedArchiveFile=" + archive);
        options.add("-Xlog:cds=off,cds+dynamic=off");
        return options;
    }
}
