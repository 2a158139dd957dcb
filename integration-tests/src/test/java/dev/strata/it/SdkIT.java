package dev.strata.it;

import dev.strata.client.Consistency;
import dev.strata.client.DeleteResult;
import dev.strata.client.KeyRange;
import dev.strata.client.KeyValue;
import dev.strata.client.Member;
import dev.strata.client.NodeStatus;
import dev.strata.client.Op;
import dev.strata.client.OutcomeUnknownException;
import dev.strata.client.PutResult;
import dev.strata.client.RangeOptions;
import dev.strata.client.RangeResult;
import dev.strata.client.StrataClient;
import dev.strata.client.StrataException;
import dev.strata.client.TxnResult;
import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Java SDK against three real nodes: every call, paging, failover, and a minority that cannot serve. */
class SdkIT {
    /** Small pages, so a modest range spans many. */
    private static final Map<String, String> SMALL_PAGES = Map.of("strata.server.range.max-page-entries", "7");

    @TempDir
    Path dir;
    private InProcessCluster cluster;
    private StrataClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private StrataClient connect(Duration timeout, long... ids) {
        List<String> endpoints = new ArrayList<>();
        for (long id : ids) {
            endpoints.add(cluster.node(id).clientAddress());
        }
        return StrataClient.builder().endpoints(endpoints).timeout(timeout).build();
    }

    @Test
    void everyCallWorksThroughTheSdk() {
        cluster = InProcessCluster.start(dir, 3, SMALL_PAGES);
        cluster.awaitLeader();
        client = connect(Duration.ofSeconds(10), 1, 2, 3);

        PutResult first = client.put("k/a", "1");
        assertThat(first.revision()).isPositive();
        assertThat(first.previous()).isNull();
        PutResult second = client.putAndGetPrevious("k/a".getBytes(), "2".getBytes());
        assertThat(second.previous().valueUtf8()).isEqualTo("1");
        assertThat(second.revision()).isGreaterThan(first.revision());
        KeyValue a = client.get("k/a").orElseThrow();
        assertThat(a.valueUtf8()).isEqualTo("2");
        assertThat(a.version()).isEqualTo(2);
        assertThat(a.createRevision()).isEqualTo(first.revision());
        assertThat(a.modRevision()).isEqualTo(second.revision());
        assertThat(client.get("k/a".getBytes(), Consistency.SERIALIZABLE)).isPresent();
        assertThat(client.get("k/absent")).isEmpty();

        long batchRevision = client.batch().put("k/b", "b").put("k/c", "c").put("other", "o").delete("k/a").commit();
        assertThat(batchRevision).isGreaterThan(second.revision());
        assertThat(client.get("k/a")).isEmpty();
        assertThat(client.get("k/b").orElseThrow().modRevision()).isEqualTo(batchRevision);

        TxnResult swapped = client.txn().ifValue("k/b").equalTo("b").then(Op.put("k/b", "b2"), Op.get("k/c"))
                .orElse(Op.get("k/b")).commit();
        assertThat(swapped.succeeded()).isTrue();
        assertThat(((RangeResult) swapped.results().get(1)).kvs()).extracting(KeyValue::valueUtf8).containsExactly("c");
        TxnResult refused = client.txn().ifVersion("k/b").equalTo(1).then(Op.put("k/b", "lost")).orElse(Op.get("k/b"))
                .commit();
        assertThat(refused.succeeded()).as("k/b is at version 2").isFalse();
        assertThat(((RangeResult) refused.results().get(0)).kvs().get(0).valueUtf8()).isEqualTo("b2");
        assertThat(client.txn().ifAbsent("k/new").then(Op.put("k/new", "n")).commit().succeeded()).isTrue();

        for (int i = 0; i < 50; i++) {
            client.put(String.format("page/%03d", i), "v" + i);
        }
        assertThat(client.range(KeyRange.prefix("page/"))).as("50 keys over 8 pages of 7")
                .extracting(KeyValue::keyUtf8).hasSize(50).isSorted().startsWith("page/000").endsWith("page/049");
        assertThat(client.range(KeyRange.between("page/010", "page/020"), RangeOptions.defaults().withKeysOnly()))
                .extracting(KeyValue::valueUtf8).hasSize(10).containsOnly("");
        assertThat(client.range(KeyRange.prefix("page/"), RangeOptions.defaults().withLimit(12).withPageSize(5)))
                .hasSize(12);
        assertThat(client.count(KeyRange.prefix("page/"))).isEqualTo(50);
        RangeResult page = client.rangePage(KeyRange.from("page/045"), 3);
        assertThat(page.kvs()).hasSize(3);
        assertThat(page.more()).isTrue();

        DeleteResult deleted = client.delete(KeyRange.prefix("page/0"));
        assertThat(deleted.deleted()).isEqualTo(50);
        assertThat(client.delete("k/absent").deleted()).isZero();
        assertThat(client.count(KeyRange.prefix("page/"))).isZero();

        NodeStatus status = client.status();
        assertThat(status.leaderId()).isPositive();
        assertThat(client.members()).extracting(Member::id).containsExactlyInAnyOrder(1L, 2L, 3L);

        assertThatThrownBy(() -> client.put("", "x")).isInstanceOf(StrataException.class)
                .satisfies(e -> assertThat(((StrataException) e).code()).isEqualTo(StrataException.Code.INVALID_ARGUMENT))
                .hasMessageContaining("put");
    }

    /**
     * A value at the server's default limit (16 MiB) goes in and comes back through the SDK, from
     * the leader and from every follower, whole and in a range. gRPC clients refuse responses over
     * 4 MiB unless told otherwise, so this is the SDK's limit as much as the server's.
     */
    @Test
    void aValueAtTheDefaultLimitGoesInAndComesBackWhole() {
        cluster = InProcessCluster.start(dir, 3, InProcessCluster.defaultValueLimits());
        cluster.awaitLeader();
        client = connect(Duration.ofSeconds(30), 1, 2, 3);
        byte[] big = new byte[16 << 20];
        new Random(16).nextBytes(big); // incompressible: 16 MiB in the Raft log, the value log and on the wire

        client.put("big".getBytes(), big);
        assertThat(Arrays.mismatch(client.get("big").orElseThrow().value(), big)).as("first differing byte").isEqualTo(-1);
        assertThat(client.range(KeyRange.prefix("big"))).singleElement()
                .satisfies(kv -> assertThat(Arrays.mismatch(kv.value(), big)).isEqualTo(-1));
        for (long id = 1; id <= 3; id++) {
            try (StrataClient one = connect(Duration.ofSeconds(30), id)) {
                Await.until(() -> one.count(KeyRange.prefix("big"), Consistency.SERIALIZABLE) == 1, Duration.ofSeconds(60),
                        "node " + id + " to apply the 16 MiB put");
                byte[] local = one.get("big".getBytes(), Consistency.SERIALIZABLE).orElseThrow().value();
                assertThat(Arrays.mismatch(local, big)).as("node %d's copy", id).isEqualTo(-1);
            }
        }
        PutResult replaced = client.putAndGetPrevious("big".getBytes(), "small".getBytes());
        assertThat(Arrays.mismatch(replaced.previous().value(), big)).as("the previous value, returned").isEqualTo(-1);

        byte[] tooBig = Arrays.copyOf(big, big.length + 1);
        assertThatThrownBy(() -> client.put("big".getBytes(), tooBig)).isInstanceOf(StrataException.class)
                .satisfies(e -> assertThat(((StrataException) e).code()).isEqualTo(StrataException.Code.INVALID_ARGUMENT))
                .hasMessageContaining("value is 16777217 bytes, the limit is 16777216 bytes");
        assertThat(client.get("big").orElseThrow().valueUtf8()).isEqualTo("small");
    }

    /**
     * Writers put fresh keys through one client while the leader is killed. Every acknowledged
     * put is there, and at version 1: the client never repeated a put it could not be sure of.
     */
    @Test
    void theClientFailsOverWhenTheLeaderDiesWithoutRepeatingAWrite() throws Exception {
        cluster = InProcessCluster.start(dir, 3, Map.of());
        long leader = cluster.awaitLeader();
        // The dead leader first: the client must move off it.
        long[] order = {leader, leader % 3 + 1, (leader + 1) % 3 + 1};
        client = connect(Duration.ofSeconds(10), order);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        Set<String> unknown = ConcurrentHashMap.newKeySet();
        List<StrataException> otherErrors = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicLong acks = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService writers = Executors.newFixedThreadPool(4);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            running.add(writers.submit(() -> {
                for (int i = 0; !done.get(); i++) {
                    String key = "fo/" + writer + "/" + i;
                    try {
                        client.put(key, "v");
                        acknowledged.add(key);
                        acks.incrementAndGet();
                    } catch (OutcomeUnknownException e) {
                        unknown.add(key);
                    } catch (StrataException e) {
                        otherErrors.add(e);
                    }
                }
            }));
        }
        try {
            Await.until(() -> acks.get() >= 40, Duration.ofSeconds(60), "40 acknowledged writes before the kill");
            cluster.stopNodeAbruptly(leader);
            long atKill = acks.get();
            Await.until(() -> acks.get() >= atKill + 40, Duration.ofSeconds(60), "40 acknowledged writes after the kill");
        } finally {
            done.set(true);
            writers.shutdown();
            assertThat(writers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        for (Future<?> f : running) {
            f.get();
        }
        assertThat(otherErrors).as("failures other than 'outcome unknown'")
                .allSatisfy(e -> assertThat(e.code()).isIn(StrataException.Code.UNAVAILABLE, StrataException.Code.DEADLINE_EXCEEDED));
        for (String key : acknowledged) {
            Optional<KeyValue> kv = client.get(key);
            assertThat(kv).as(key).isPresent();
            assertThat(kv.get().version()).as("%s was applied once", key).isEqualTo(1);
        }
        for (String key : unknown) {
            client.get(key).ifPresent(kv -> assertThat(kv.version()).as("%s was applied at most once", key).isEqualTo(1));
        }
    }

    /** One node left of three: it cannot commit or run a ReadIndex, and calls end with UNAVAILABLE or DEADLINE_EXCEEDED. */
    @Test
    void aNodeCutOffFromTheMajorityFailsCallsWithUnavailableOrDeadlineExceeded() {
        cluster = InProcessCluster.start(dir, 3, Map.of());
        client = connect(Duration.ofSeconds(4), 1, 2, 3);
        client.put("before", "x");
        cluster.awaitCaughtUp(1); // so that its local (serializable) read below sees it
        cluster.stopNodeAbruptly(2);
        cluster.stopNodeAbruptly(3);

        assertThatThrownBy(() -> client.put("after", "y")).isInstanceOf(StrataException.class)
                .satisfies(e -> assertThat(((StrataException) e).code())
                        .isIn(StrataException.Code.UNAVAILABLE, StrataException.Code.DEADLINE_EXCEEDED))
                .hasMessageContaining("put via");
        assertThatThrownBy(() -> client.get("before")).isInstanceOf(StrataException.class)
                .satisfies(e -> assertThat(((StrataException) e).code())
                        .isIn(StrataException.Code.UNAVAILABLE, StrataException.Code.DEADLINE_EXCEEDED))
                .hasMessageContaining("get via");
        assertThat(client.get("before".getBytes(), Consistency.SERIALIZABLE)).as("a local read needs no majority")
                .map(KeyValue::valueUtf8).contains("x");
    }
}
