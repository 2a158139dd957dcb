package dev.strata.it;

import dev.strata.proto.v1.KeyValue;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.strata.it.Kv.b;
import static dev.strata.it.Kv.put;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader stops abruptly (in-process: {@link InProcessCluster#stopNodeAbruptly}) under a stream of
 * writes: another is elected, nothing acknowledged is lost, and clients see only retryable
 * errors, apart from the calls in flight on the stopped node, which its shutdown cuts off. A
 * leader killed as a process is the fault-injection suite's kill-leader.
 */
class LeaderFailoverIT {
    private static final int WRITERS = 4;
    private static final Set<Status.Code> RETRYABLE = Set.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED);

    @TempDir
    Path dir;
    private InProcessCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void anAbruptlyStoppedLeaderIsReplacedAndEveryAcknowledgedWriteSurvives() throws Exception {
        cluster = InProcessCluster.start(dir, 3, Map.of());
        long oldLeader = cluster.awaitLeader();
        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<StatusRuntimeException> errors = new ConcurrentLinkedQueue<>();
        AtomicLong acks = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong killed = new AtomicLong();
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> running = new java.util.ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            running.add(writers.submit(() -> {
                int i = 0;
                while (!done.get()) {
                    String key = "fo/" + writer + "/" + i;
                    // Like a real client, a writer does not know which node died: it picks any and moves on after an error.
                    long node = 1 + ThreadLocalRandom.current().nextInt(3);
                    try {
                        put(cluster.kv(node), key, "v" + i);
                        acknowledged.put(key, "v" + i);
                        acks.incrementAndGet();
                        i++;
                    } catch (StatusRuntimeException e) {
                        // Not acknowledged: it may or may not have happened. Retry the same key elsewhere.
                        // A call in flight on the node being killed is cut off (the in-process server's
                        // shutdown resets its streams: CANCELLED or INTERNAL); a dead process would look UNAVAILABLE.
                        boolean cutOff = node == killed.get() && (e.getStatus().getCode() == Status.Code.CANCELLED
                                || e.getStatus().getCode() == Status.Code.INTERNAL);
                        if (!cutOff) {
                            errors.add(e);
                        }
                    }
                }
            }));
        }
        try {
            Await.until(() -> acks.get() >= 60, Duration.ofSeconds(60), "60 acknowledged writes before the kill");
            killed.set(oldLeader);
            cluster.stopNodeAbruptly(oldLeader);
            long atKill = acks.get();
            long newLeader = cluster.awaitLeader();
            assertThat(newLeader).isNotEqualTo(oldLeader);
            Await.until(() -> acks.get() >= atKill + 60, Duration.ofSeconds(60), "60 acknowledged writes after the kill");
        } finally {
            done.set(true);
            writers.shutdown();
            assertThat(writers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        for (Future<?> f : running) {
            f.get();
        }

        assertThat(errors).allSatisfy(e -> assertThat(e.getStatus().getCode()).as("%s", e.getStatus()).isIn(RETRYABLE));
        for (long node : cluster.runningIds()) {
            Map<String, String> seen = new HashMap<>();
            RangeRequest all = RangeRequest.newBuilder().setKey(b("fo/")).setPrefix(true).build();
            RangeResponse page = cluster.kv(node).range(all);
            while (true) {
                for (KeyValue kv : page.getKvsList()) {
                    seen.put(kv.getKey().toStringUtf8(), kv.getValue().toStringUtf8());
                }
                if (page.getNextPageToken().isEmpty()) {
                    break;
                }
                page = cluster.kv(node).range(all.toBuilder().setPageToken(page.getNextPageToken()).build());
            }
            assertThat(seen).as("node %d holds every acknowledged write", node).containsAllEntriesOf(acknowledged);
        }
        System.out.printf("acknowledged %d writes; %d retryable errors: %s%n", acknowledged.size(), errors.size(),
                errors.stream().map(e -> e.getStatus().getCode()).distinct().toList());
    }

    @Test
    void aNodeThatLostItsQuorumServesWritesAgainOnceItReturns() {
        // A short request timeout so the node gives up on a write quickly while it has no quorum.
        cluster = InProcessCluster.start(dir, 3, Map.of("strata.server.request-timeout", "2s"));
        cluster.awaitLeader();
        long survivor = 1;
        put(cluster.kv(survivor), "quorum/before", "1");

        cluster.stopNodeAbruptly(2);
        cluster.stopNodeAbruptly(3);
        StatusRuntimeException lost = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
                () -> put(cluster.kv(survivor), "quorum/while-lost", "2"));
        assertThat(lost.getStatus().getCode()).isIn(RETRYABLE);

        // The failed write used up the node's Raft client; a node that kept it would refuse every
        // later write even with its peers back.
        cluster.startNode(2);
        cluster.startNode(3);
        cluster.awaitLeader();
        Await.until(() -> {
            try {
                put(cluster.kv(survivor), "quorum/after", "3");
                return true;
            } catch (StatusRuntimeException e) {
                assertThat(e.getStatus().getCode()).as("%s", e.getStatus()).isIn(RETRYABLE);
                return false;
            }
        }, Duration.ofSeconds(60), "a write through node " + survivor + " after its peers returned");
        cluster.awaitCaughtUp(survivor);
        assertThat(cluster.localContents(survivor)).containsEntry("quorum/before", "1").containsEntry("quorum/after", "3");
    }
}
