package dev.strata.it;

import dev.strata.proto.v1.StatusResponse;
import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.strata.it.Kv.put;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node killed with SIGKILL after checkpoints purged its Raft log restarts with everything it
 * had applied: its engine reads back from its own (unsynced) log the batches past the durable
 * marker, and the leader sends what the node missed while down.
 */
class RestartRecoveryIT {
    private static final long NODE = 3;
    private static final String VALUE = "x".repeat(200);

    @TempDir
    Path dir;
    private InProcessCluster cluster;
    private ServerProcess process;

    @AfterEach
    void stop() throws InterruptedException {
        if (process != null && process.alive()) {
            process.kill9();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private void write(String prefix, int count) {
        for (int i = 0; i < count; i++) {
            put(cluster.kv(1 + i % 2), prefix + i, VALUE);
        }
    }

    private ServerProcess startProcess() {
        ServerProcess p = ServerProcess.start(cluster.config(NODE), dir.resolve("node3.log"));
        Await.until(() -> cluster.status(NODE).getLeaderId() != 0, InProcessCluster.STARTUP, "node 3 (a process) to find the leader");
        return p;
    }

    @Test
    void aNodeKilledAfterItsLogWasPurgedReopensWithWhatItAppliedAndCatchesUp() throws Exception {
        // Checkpoints every 50 entries and 16 KiB log segments, so the log is purged quickly.
        cluster = InProcessCluster.start(dir, 3, Map.of("strata.raft.snapshot.threshold-entries", "50",
                "strata.raft.log.segment-size", "16KiB"));
        cluster.stopNode(NODE);
        cluster.forgetNode(NODE);
        process = startProcess();

        write("a/", 300);
        Await.until(() -> cluster.status(NODE).getLogStartIndex() > 0, Duration.ofSeconds(60), "node 3 to purge its own log");
        // Writes after the last checkpoint are only in node 3's memtable and engine log: make sure some are.
        int extra = 0;
        StatusResponse before;
        do {
            put(cluster.kv(1), "b/" + extra, VALUE);
            extra++;
            cluster.awaitCaughtUp(NODE);
            before = cluster.status(NODE);
        } while (before.getDurableIndex() >= before.getAppliedIndex() && extra < 200);
        assertThat(before.getDurableIndex()).isLessThan(before.getAppliedIndex());
        assertThat(before.getLogStartIndex()).isPositive();

        process.kill9();
        write("c/", 30);

        process = startProcess();
        cluster.awaitCaughtUp(NODE);

        // The restarted engine read back from its own log what it had applied past its durable
        // marker, so Raft replays only what came after (the c/ writes, from the leader).
        Matcher opened = Pattern.compile("holds the log up to \\(t:\\d+, i:(\\d+)\\)").matcher(process.output());
        long reopenedAt = -1;
        while (opened.find()) {
            reopenedAt = Long.parseLong(opened.group(1));
        }
        assertThat(reopenedAt).isGreaterThan(before.getDurableIndex()).isLessThanOrEqualTo(before.getAppliedIndex());
        StatusResponse after = cluster.status(NODE);
        assertThat(after.getLogStartIndex()).isPositive();
        assertThat(after.getAppliedIndex()).isGreaterThan(before.getAppliedIndex());

        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            expected.put("a/" + i, VALUE);
        }
        for (int i = 0; i < extra; i++) {
            expected.put("b/" + i, VALUE);
        }
        for (int i = 0; i < 30; i++) {
            expected.put("c/" + i, VALUE);
        }
        assertThat(cluster.localContents(NODE)).isEqualTo(expected);
    }
}
