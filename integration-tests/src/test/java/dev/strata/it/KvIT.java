package dev.strata.it;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.BatchOp;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.BatchResponse;
import dev.strata.proto.v1.Compare;
import dev.strata.proto.v1.Consistency;
import dev.strata.proto.v1.DeleteRequest;
import dev.strata.proto.v1.DeleteResponse;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.KeyValue;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.proto.v1.RequestOp;
import dev.strata.proto.v1.TxnRequest;
import dev.strata.proto.v1.TxnResponse;
import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.strata.it.Kv.b;
import static dev.strata.it.Kv.get;
import static dev.strata.it.Kv.put;
import static org.assertj.core.api.Assertions.assertThat;

/** The KV API on three nodes in one JVM: consistency, Txn, ranges, deletes, revisions, and the operational surface. */
class KvIT {
    @TempDir
    static Path dir;
    static InProcessCluster cluster;

    @BeforeAll
    static void start() {
        // Small range pages so paging by bytes needs only a few keys.
        cluster = InProcessCluster.start(dir, 3, Map.of("strata.server.range.max-page-bytes", "4KiB"));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void writesOnAnyNodeAreReadableLinearizablyOnEveryNode() {
        for (long writer = 1; writer <= 3; writer++) {
            for (int i = 0; i < 5; i++) {
                String key = "lin/" + writer + "/" + i;
                put(cluster.kv(writer), key, "v" + i);
                // Right after the write is acknowledged, every node sees it: no waiting for replication.
                for (long reader = 1; reader <= 3; reader++) {
                    KeyValue kv = get(cluster.kv(reader), key);
                    assertThat(kv).as("node %d reading %s written on node %d", reader, key, writer).isNotNull();
                    assertThat(kv.getValue()).isEqualTo(b("v" + i));
                }
            }
        }
    }

    @Test
    void headersNameTheAnsweringNodeAndItsTerm() {
        long leader = cluster.awaitLeader();
        long term = cluster.status(leader).getHeader().getRaftTerm();
        for (long id = 1; id <= 3; id++) {
            PutResponse r = put(cluster.kv(id), "hdr/" + id, "x");
            assertThat(r.getHeader().getMemberId()).isEqualTo(id);
            assertThat(r.getHeader().getRaftTerm()).isEqualTo(term);
            assertThat(r.getHeader().getRevision()).isPositive();
        }
    }

    @Test
    void revisionsAndVersionsFollowEtcdsRules() {
        KVGrpc.KVBlockingStub kv = cluster.kv(2);
        long r1 = put(kv, "rev/a", "1").getHeader().getRevision();
        KeyValue first = get(kv, "rev/a");
        assertThat(first.getCreateRevision()).isEqualTo(r1);
        assertThat(first.getModRevision()).isEqualTo(r1);
        assertThat(first.getVersion()).isEqualTo(1);

        PutResponse second = kv.put(PutRequest.newBuilder().setKey(b("rev/a")).setValue(b("2")).setPrevKv(true).build());
        long r2 = second.getHeader().getRevision();
        assertThat(r2).isGreaterThan(r1);
        assertThat(second.getPrevKv()).isEqualTo(first);
        assertThat(get(cluster.kv(3), "rev/a")).extracting(KeyValue::getCreateRevision, KeyValue::getModRevision, KeyValue::getVersion)
                .containsExactly(r1, r2, 2L);

        kv.delete(DeleteRequest.newBuilder().setKey(b("rev/a")).build());
        long r4 = put(kv, "rev/a", "3").getHeader().getRevision();
        assertThat(get(cluster.kv(1), "rev/a")).extracting(KeyValue::getCreateRevision, KeyValue::getModRevision, KeyValue::getVersion)
                .containsExactly(r4, r4, 1L);
        // A read's revision covers every write it sees.
        var read = cluster.kv(1).get(dev.strata.proto.v1.GetRequest.newBuilder().setKey(b("rev/a")).build());
        assertThat(read.getHeader().getRevision()).isGreaterThanOrEqualTo(read.getKv().getModRevision());
    }

    private static TxnResponse txn(KVGrpc.KVBlockingStub kv, Compare compare) {
        return kv.txn(TxnRequest.newBuilder().addCompare(compare)
                .addSuccess(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("txn/branch")).setValue(b("success"))))
                .addFailure(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("txn/branch")).setValue(b("failure"))))
                .addFailure(RequestOp.newBuilder().setRange(RangeRequest.newBuilder().setKey(b("txn/k"))))
                .build());
    }

    private static void assertBranch(KVGrpc.KVBlockingStub kv, Compare compare, boolean succeeds) {
        TxnResponse r = txn(kv, compare);
        assertThat(r.getSucceeded()).as("%s", compare).isEqualTo(succeeds);
        assertThat(get(kv, "txn/branch").getValue()).isEqualTo(b(succeeds ? "success" : "failure"));
        assertThat(get(kv, "txn/branch").getModRevision()).isEqualTo(r.getHeader().getRevision());
        if (!succeeds) {
            assertThat(r.getResponses(1).getRange().getKvs(0).getKey()).isEqualTo(b("txn/k"));
        }
    }

    @Test
    void txnComparesEveryTargetAndRunsTheMatchingBranchAtomically() {
        KVGrpc.KVBlockingStub kv = cluster.kv(3);
        long created = put(kv, "txn/k", "apple").getHeader().getRevision();
        long modified = put(kv, "txn/k", "banana").getHeader().getRevision();
        Compare.Builder k = Compare.newBuilder().setKey(b("txn/k"));
        assertBranch(kv, k.clone().setTarget(Compare.Target.VALUE).setResult(Compare.Result.EQUAL).setValue(b("banana")).build(), true);
        assertBranch(kv, k.clone().setTarget(Compare.Target.VALUE).setResult(Compare.Result.LESS).setValue(b("apple")).build(), false);
        assertBranch(kv, k.clone().setTarget(Compare.Target.VERSION).setResult(Compare.Result.EQUAL).setVersion(2).build(), true);
        assertBranch(kv, k.clone().setTarget(Compare.Target.VERSION).setResult(Compare.Result.GREATER).setVersion(2).build(), false);
        assertBranch(kv, k.clone().setTarget(Compare.Target.CREATE_REVISION).setResult(Compare.Result.EQUAL).setCreateRevision(created).build(), true);
        assertBranch(kv, k.clone().setTarget(Compare.Target.CREATE_REVISION).setResult(Compare.Result.NOT_EQUAL).setCreateRevision(created).build(), false);
        assertBranch(kv, k.clone().setTarget(Compare.Target.MOD_REVISION).setResult(Compare.Result.EQUAL).setModRevision(modified).build(), true);
        assertBranch(kv, k.clone().setTarget(Compare.Target.MOD_REVISION).setResult(Compare.Result.LESS).setModRevision(modified).build(), false);
        assertBranch(kv, k.clone().setTarget(Compare.Target.EXISTS).setResult(Compare.Result.EQUAL).build(), true);
        assertBranch(kv, Compare.newBuilder().setKey(b("txn/absent")).setTarget(Compare.Target.EXISTS).setResult(Compare.Result.EQUAL).build(), false);

        // All compares must hold; one failing compare sends the whole txn down the failure branch.
        TxnResponse mixed = kv.txn(TxnRequest.newBuilder()
                .addCompare(k.clone().setTarget(Compare.Target.VERSION).setResult(Compare.Result.EQUAL).setVersion(2))
                .addCompare(k.clone().setTarget(Compare.Target.VALUE).setResult(Compare.Result.EQUAL).setValue(b("cherry")))
                .addSuccess(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("txn/k")).setValue(b("never"))))
                .build());
        assertThat(mixed.getSucceeded()).isFalse();
        assertThat(get(kv, "txn/k").getValue()).isEqualTo(b("banana"));
    }

    @Test
    void concurrentCompareAndSetLetsExactlyOneWriterWin() throws Exception {
        long rev = put(cluster.kv(1), "cas/k", "0").getHeader().getRevision();
        List<Future<Boolean>> attempts = new ArrayList<>();
        // Blocking calls get threads of their own: the common pool is shared with the servers in this JVM.
        ExecutorService clients = Executors.newFixedThreadPool(3);
        try {
            for (long id = 1; id <= 3; id++) {
                long node = id;
                attempts.add(clients.submit(() -> cluster.kv(node).txn(TxnRequest.newBuilder()
                        .addCompare(Compare.newBuilder().setKey(b("cas/k")).setTarget(Compare.Target.MOD_REVISION).setModRevision(rev))
                        .addSuccess(RequestOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b("cas/k")).setValue(b("from " + node))))
                        .build()).getSucceeded()));
            }
        } finally {
            clients.shutdown();
        }
        long winners = 0;
        for (Future<Boolean> a : attempts) {
            winners += a.get(30, TimeUnit.SECONDS) ? 1 : 0;
        }
        assertThat(winners).isEqualTo(1);
        assertThat(get(cluster.kv(2), "cas/k").getVersion()).isEqualTo(2);
    }

    @Test
    void rangePagesByCountAndByBytes() {
        KVGrpc.KVBlockingStub kv = cluster.kv(1);
        BatchRequest.Builder batch = BatchRequest.newBuilder();
        for (int i = 0; i < 25; i++) {
            batch.addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder().setKey(b(String.format("page/%02d", i))).setValue(b("v".repeat(1200)))));
        }
        BatchResponse written = kv.batch(batch.build());
        assertThat(written.getResponsesCount()).isEqualTo(25);

        // By count: 10 + 10 + 5, following the tokens.
        List<ByteString> keys = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        RangeRequest byCount = RangeRequest.newBuilder().setKey(b("page/")).setPrefix(true).setLimit(10).setKeysOnly(true).build();
        RangeResponse page = cluster.kv(2).range(byCount);
        while (true) {
            page.getKvsList().forEach(k -> keys.add(k.getKey()));
            pageSizes.add(page.getKvsCount());
            assertThat(page.getKvsList()).allSatisfy(k -> assertThat(k.getValue()).isEmpty());
            if (page.getNextPageToken().isEmpty()) {
                break;
            }
            page = cluster.kv(3).range(byCount.toBuilder().setPageToken(page.getNextPageToken()).build());
        }
        assertThat(pageSizes).containsExactly(10, 10, 5);
        assertThat(keys).hasSize(25).isSortedAccordingTo(ByteString.unsignedLexicographicalComparator());

        // By bytes: 4 KiB pages of ~1.2 KiB entries hold 3 each (the fourth would pass the bound).
        RangeRequest byBytes = RangeRequest.newBuilder().setKey(b("page/")).setRangeEnd(b("page0")).build();
        RangeResponse first = kv.range(byBytes);
        assertThat(first.getKvsCount()).isEqualTo(3);
        assertThat(first.getKvs(0).getValue().size()).isEqualTo(1200);
        int total = first.getKvsCount();
        for (RangeResponse p = first; !p.getNextPageToken().isEmpty(); ) {
            p = kv.range(byBytes.toBuilder().setPageToken(p.getNextPageToken()).build());
            assertThat(p.getKvsCount()).isBetween(1, 3);
            total += p.getKvsCount();
        }
        assertThat(total).isEqualTo(25);

        RangeResponse count = kv.range(byBytes.toBuilder().setCountOnly(true).setConsistency(Consistency.SERIALIZABLE).build());
        assertThat(count.getCount()).isEqualTo(25);
        assertThat(count.getKvsCount()).isZero();
    }

    @Test
    void deleteByRangeAndByPrefix() {
        KVGrpc.KVBlockingStub kv = cluster.kv(2);
        for (String k : new String[] {"del/a/1", "del/a/2", "del/b/1", "del/b/2", "del/c"}) {
            put(kv, k, "x");
        }
        DeleteResponse byPrefix = kv.delete(DeleteRequest.newBuilder().setKey(b("del/a/")).setPrefix(true).setPrevKv(true).build());
        assertThat(byPrefix.getDeleted()).isEqualTo(2);
        assertThat(byPrefix.getPrevKvsList()).extracting(KeyValue::getKey).containsExactly(b("del/a/1"), b("del/a/2"));
        DeleteResponse byRange = cluster.kv(3).delete(DeleteRequest.newBuilder().setKey(b("del/b/")).setRangeEnd(b("del/c")).build());
        assertThat(byRange.getDeleted()).isEqualTo(2);
        RangeResponse left = cluster.kv(1).range(RangeRequest.newBuilder().setKey(b("del/")).setPrefix(true).build());
        assertThat(left.getKvsList()).extracting(KeyValue::getKey).containsExactly(b("del/c"));
        assertThat(kv.delete(DeleteRequest.newBuilder().setKey(b("del/none")).build()).getDeleted()).isZero();
    }

    @Test
    void serializableReadsAreServedByTheNodeAsked() {
        put(cluster.kv(1), "ser/k", "v");
        cluster.awaitCaughtUp(3);
        assertThat(Kv.getLocal(cluster.kv(3), "ser/k").getValue()).isEqualTo(b("v"));
    }

    @Test
    void healthReflectionMetricsAndProbesWorkWithoutProtoFiles() throws Exception {
        long leader = cluster.awaitLeader();
        Await.until(() -> HealthGrpc.newBlockingStub(cluster.channel(leader))
                        .check(HealthCheckRequest.newBuilder().setService("strata.v1.KV").build()).getStatus()
                        == HealthCheckResponse.ServingStatus.SERVING,
                InProcessCluster.STARTUP, "the KV service to report SERVING");
        assertThat(HealthGrpc.newBlockingStub(cluster.channel(leader)).check(HealthCheckRequest.getDefaultInstance()).getStatus())
                .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);

        CompletableFuture<List<String>> services = new CompletableFuture<>();
        StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(cluster.channel(leader))
                .serverReflectionInfo(new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse r) {
                        services.complete(r.getListServicesResponse().getServiceList().stream().map(ServiceResponse::getName).toList());
                    }

                    @Override
                    public void onError(Throwable t) {
                        services.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        services.complete(List.of());
                    }
                });
        requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
        requests.onCompleted();
        assertThat(services.get(20, TimeUnit.SECONDS)).contains("strata.v1.KV", "strata.v1.Cluster", "grpc.health.v1.Health");

        put(cluster.kv(leader), "metrics/k", "v");
        try (HttpClient http = HttpClient.newHttpClient()) {
            String base = "http://127.0.0.1:" + cluster.httpPort(leader);
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body())
                    .contains("strata_grpc_requests_total{code=\"OK\",method=\"strata.v1.KV/Put\"}")
                    .contains("strata_grpc_request_duration_seconds_bucket{code=\"OK\",method=\"strata.v1.KV/Put\"")
                    .contains("strata_raft_term ")
                    .contains("strata_raft_commit_index ")
                    .contains("strata_raft_applied_index ")
                    .contains("strata_raft_leader_changes_total ")
                    .contains("strata_raft_leader 1.0")
                    .contains("strata_engine_write_amplification ")
                    .contains("strata_engine_level_compression_ratio{level=\"0\"}")
                    .contains("strata_engine_block_cache_hits_total ")
                    .contains("strata_engine_value_log_garbage_bytes ");
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(200);
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/readyz")).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(200);
        }
    }
}
