package dev.strata.bench;

import dev.strata.client.StrataClient;
import dev.strata.testkit.cluster.ProcessCluster;

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
 * <p>It is trained as the launcher's is: a three-node cluster takes writes and reads for
 * {@link #TRAINING}, then its leader stops gracefully and writes the classes it loaded
 * ({@code -XX:ArchiveClassesAtExit}); the followers are then killed with SIGKILL, which writes
 * nothing, so that only one JVM writes the file.
 */
final class ServerClassArchive {
    private static final Duration TRAINING = Duration.ofSeconds(20);
    private static final Duration REQUEST_EVERY = Duration.ofMillis(50);

    private ServerClassArchive() {}

    /**
     * Trains an archive in {@code dir} with nodes of {@code jvmOptions} and {@code settings}.
     *
     * @return the JVM options that map it (the given ones plus the archive's), for every later node
     * @throws IllegalStateException if the leader wrote no archive when it stopped
     */
    static List<String> train(Path dir, Map<String, String> settings, List<String> jvmOptions, Duration timeout)
            throws Exception {
        Path archive = dir.resolve("strata-server.jsa").toAbsolutePath();
        List<String> training = new ArrayList<>(jvmOptions);
        training.add("-XX:ArchiveClassesAtExit=" + archive);
        training.add("-Xlog:cds=off,cds+dynamic=off");
        try (ProcessCluster cluster = ProcessCluster.start(dir.resolve("training"), 3, settings, training);
             StrataClient client = StrataClient.builder().endpoints(cluster.clientAddresses()).build()) {
            long leader = cluster.awaitLeader(timeout);
            long end = System.nanoTime() + TRAINING.toNanos();
            for (int i = 0; System.nanoTime() < end; i++) {
                byte[] key = ("training-" + i % 100).getBytes(StandardCharsets.US_ASCII);
                client.put(key, key);
                client.get(key);
                LockSupport.parkNanos(REQUEST_EVERY.toNanos());
            }
            cluster.terminate(leader);
            for (long id : cluster.memberIds()) {
                if (id != leader) {
                    cluster.kill9(id);
                }
            }
        }
        if (!Files.isRegularFile(archive)) {
            throw new IllegalStateException("the training cluster's leader wrote no class-data archive " + archive);
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
