package dev.strata.server.raft;

import dev.strata.server.config.ServerConfig;
import dev.strata.server.tls.ServerTls;
import dev.strata.testkit.Await;
import dev.strata.testkit.Ports;
import org.apache.ratis.server.protocol.TermIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leadership transfer whose call Ratis fails although the target takes over (its timer fired
 * first) counts as done. A transfer given 1 ms does that on an idle cluster: the leader sends the
 * up-to-date target its election request at once, and the timer fails the call before the
 * target has won.
 */
class LeadershipTransferTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<RaftNode> nodes = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (RaftNode n : nodes) {
            n.close();
        }
    }

    @Test
    void aTransferThatRatisTimesOutButThatSucceedsIsDone() throws Exception {
        StringBuilder peers = new StringBuilder();
        for (int id = 1; id <= 3; id++) {
            peers.append(id == 1 ? "" : ",").append(id).append("=127.0.0.1:").append(Ports.free()).append(':').append(Ports.free());
        }
        for (int id = 1; id <= 3; id++) {
            RaftNode node = new RaftNode(ServerConfig.resolve(Map.of(
                    "strata.data.dir", dir.resolve("node" + id).toString(),
                    "strata.node.id", Integer.toString(id),
                    "strata.cluster.peers", peers.toString())), ServerTls.plaintext());
            nodes.add(node);
            node.start();
        }
        // A node's first connections can fail while its peers start (gRPC then fails calls fast for a
        // while, and the target's election with them): such an attempt fails as it should, and the
        // test tries again. Without the fallback every attempt fails, since Ratis's timer always wins.
        long target = 0;
        boolean done = false;
        for (int attempt = 0; attempt < 10 && !done; attempt++) {
            Await.until(() -> leader().isPresent(), WAIT, "a leader");
            RaftNode leader = leader().orElseThrow();
            // Every follower holds the leader's last entry, so the leader asks the target at once.
            Await.until(() -> {
                // A leader elected a moment ago may not have written its first entry yet.
                TermIndex last = leader.division().getRaftLog().getLastEntryTermIndex();
                long commit = leader.status().commitIndex();
                return last != null && commit == last.getIndex()
                        && nodes.stream().allMatch(n -> n.status().appliedIndex() == commit);
            }, WAIT, "every node to hold the leader's log");
            target = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow().id();
            try {
                leader.transferLeadership(target, Duration.ofMillis(1));
                done = true;
                assertThat(leader.division().getInfo().getLeaderId()).hasToString(Long.toString(target));
            } catch (IOException | RuntimeException e) {
                assertThat(e).hasMessageContaining("TIMED_OUT");
                // The next attempt starts once every node names one leader again (a transfer
                // that Ratis gave up on may still have moved leadership).
                Await.until(() -> nodes.stream().map(n -> n.leader().map(Member::id).orElse(0L)).distinct().count() == 1
                        && nodes.get(0).leader().isPresent(), WAIT, "every node to name one leader");
            }
        }

        assertThat(done).as("a transfer that succeeded was reported done").isTrue();
        long newLeader = target;
        Await.until(() -> nodes.stream().allMatch(n -> n.leader().map(Member::id).orElse(0L) == newLeader), WAIT,
                "every node to follow node " + newLeader);
    }

    private Optional<RaftNode> leader() {
        return nodes.stream().filter(n -> n.division() != null && n.division().getInfo().isLeader()).findFirst();
    }
}
