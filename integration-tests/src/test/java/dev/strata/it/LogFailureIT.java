package dev.strata.it;

import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static dev.strata.it.Kv.put;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node whose Raft log cannot be written (a full disk) stops at once. Left running, it would
 * answer a leader that resends entries it holds only in memory that it has stored them, and
 * after a restart that leader would wait forever for it (see {@code KvStateMachine.notifyLogFailed}).
 * Restarted with room on its disk, it catches up and holds every acknowledged write.
 */
class LogFailureIT {
    private static final long NODE = 3;
    private static final String VALUE = "v".repeat(1024);
    private static final long LIMIT = 256 * 1024;

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

    private ServerProcess startProcess() {
        ServerProcess p = ServerProcess.start(cluster.config(NODE), dir.resolve("node3.log"));
        Await.until(() -> cluster.status(NODE).getLeaderId() != 0, InProcessCluster.STARTUP, "node 3 (a process) to find the leader");
        return p;
    }

    @Test
    void aNodeWhoseRaftLogCannotBeWrittenStopsAndCatchesUpOnceRestartedWithRoom() throws Exception {
        cluster = InProcessCluster.start(dir, 3, Map.of());
        cluster.stopNode(NODE);
        cluster.forgetNode(NODE);
        process = startProcess();
        Map<String, String> written = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            put(cluster.kv(1 + i % 2), "a/" + i, VALUE);
            written.put("a/" + i, VALUE);
        }
        cluster.awaitCaughtUp(NODE);

        // A write past 256 KiB into any file now fails. The open Raft log segment holds about
        // 25 KiB of entries, so it fails a couple of hundred writes from now. The node's output file
        // is bound by the limit too, so it must be well short of it for the messages to be kept.
        assertThat(Files.size(dir.resolve("node3.log"))).isLessThan(LIMIT / 2);
        process.limitFileSize(LIMIT);
        int more = 0;
        while (process.alive() && more < 2_000) {
            put(cluster.kv(1 + more % 2), "b/" + more, VALUE);
            written.put("b/" + more, VALUE);
            more++;
        }
        assertThat(process.awaitExit(InProcessCluster.STARTUP)).as("the node's process ends with an error").isEqualTo(1);
        assertThat(process.output()).contains("could not write its Raft log", "its Raft log could not be written");

        // The two others are a majority: writes go on.
        for (int i = 0; i < 20; i++) {
            put(cluster.kv(1 + i % 2), "c/" + i, VALUE);
            written.put("c/" + i, VALUE);
        }

        process = startProcess();
        cluster.awaitCaughtUp(NODE);
        assertThat(cluster.localContents(NODE)).isEqualTo(written);
    }
}
