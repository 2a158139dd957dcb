package dev.strata.server.raft;

import com.google.protobuf.ByteString;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.internal.v1.Query;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import dev.strata.server.config.ServerConfig;
import dev.strata.server.kv.KvReader;
import dev.strata.server.kv.Limits;
import dev.strata.server.tls.ServerTls;
import dev.strata.testkit.Await;
import dev.strata.testkit.Ports;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The state machine under a real single-node Ratis server on loopback: durability, snapshots, lifecycle. */
class KvStateMachineTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Small log segments and checkpoints effectively off: every purge comes from the engine's flushes. */
    private static final Map<String, String> PURGES_FROM_FLUSHES_ONLY = Map.of(
            "strata.raft.log.segment-size", "64KiB",
            "strata.raft.snapshot.threshold-entries", "1000000000",
            "strata.raft.snapshot.threshold-bytes", "1GiB");

    @TempDir
    Path dir;
    private RaftNode node;
    private final KvReader reader = new KvReader(new Limits(1 << 20, 2 << 20, 100, 1 << 20));

    @AfterEach
    void stop() throws IOException {
        if (node != null) {
            node.close();
        }
    }

    private RaftNode start(Map<String, String> extra) throws IOException {
        Map<String, String> c = new HashMap<>(Map.of(
                "strata.data.dir", dir.toString(),
                "strata.server.raft-port", Integer.toString(Ports.free()),
                "strata.server.client-port", Integer.toString(Ports.free()),
                "strata.raft.election-timeout", "200ms",
                "strata.engine.write-buffer-size", "1MiB",
                "strata.server.max-value-size", "64KiB",
                "strata.server.max-request-size", "1MiB"));
        c.putAll(extra);
        RaftNode n = new RaftNode(ServerConfig.resolve(c), ServerTls.plaintext());
        n.start();
        Await.until(n::ready, WAIT, "a single node to elect itself");
        return n;
    }


    private PutResponse put(String key, String value) throws Exception {
        Command c = Command.newBuilder().setPut(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(value))).build();
        return node.write(c).get(10, TimeUnit.SECONDS).as(PutResponse.class, PutResponse.parser());
    }

    private String get(RaftNode n, String key) {
        GetResponse r = getResponse(n, key);
        return r.hasKv() ? r.getKv().getValue().toStringUtf8() : null;
    }

    private GetResponse getResponse(RaftNode n, String key) {
        return n.read((view, rev) -> reader.get(view, GetRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).build(), rev));
    }

    @Test
    void aLeaderLogThatStartsAtTheNextNeededEntryIsNotEnoughToCatchUpFrom() {
        assertThat(CheckpointCatchUp.leaderLogReaches(17_017, 17_000)).as("the leader holds the entry before").isTrue();
        assertThat(CheckpointCatchUp.leaderLogReaches(17_017, 17_016)).as("it holds exactly the entry before").isTrue();
        assertThat(CheckpointCatchUp.leaderLogReaches(17_017, 17_017)).as("it lacks the entry before: a checkpoint").isFalse();
        assertThat(CheckpointCatchUp.leaderLogReaches(17_017, 20_000)).as("it purged entries this node needs").isFalse();
        assertThat(CheckpointCatchUp.leaderLogReaches(0, 0)).as("a new node and a log never purged").isTrue();
    }

    @Test
    void writesSurviveARestartThroughTheDurableMarker() throws Exception {
        node = start(Map.of());
        long revision = 0;
        for (int i = 0; i < 50; i++) {
            revision = put("k" + i, "v" + i).getHeader().getRevision();
        }
        long last = node.status().appliedIndex();
        assertThat(node.status().durableIndex()).isLessThan(last);
        node.close();
        node = start(Map.of());
        // Closing flushed the engine, so the marker covers every write and nothing needs replay.
        assertThat(node.status().durableIndex()).isGreaterThanOrEqualTo(last);
        for (int i = 0; i < 50; i++) {
            assertThat(get(node, "k" + i)).isEqualTo("v" + i);
        }
        assertThat(node.stateMachine().getLatestSnapshot().getIndex()).isEqualTo(node.status().durableIndex());
        assertThat(node.stateMachine().revision()).as("the revision is in the durable marker too").isEqualTo(revision);
        assertThat(put("after", "restart").getHeader().getRevision()).isEqualTo(revision + 1);
    }

    @Test
    void aCrashedNodeReopensWithEverythingItAppliedFromTheEnginesLog(@TempDir Path crashed) throws Exception {
        node = start(Map.of());
        long revision = 0;
        for (int i = 0; i < 50; i++) {
            revision = put("k" + i, "v" + i).getHeader().getRevision();
        }
        long last = node.status().appliedIndex();
        long durableBefore = node.status().durableIndex();
        assertThat(durableBefore).isLessThan(last);
        // A copy of the running node's files is what a kill -9 leaves: nothing flushed, the logs as written.
        copyTree(dir, crashed);
        node.close();
        node = start(Map.of("strata.data.dir", crashed.toString()));
        // The engine's open replayed its own log into its memtable without flushing it: the durable
        // marker is where it was, and Ratis started after what the memtable held instead of applying
        // those entries again (which would have made each key's version 2).
        assertThat(node.status().durableIndex()).isEqualTo(durableBefore);
        assertThat(node.stateMachine().getLatestSnapshot().getIndex()).isGreaterThan(durableBefore);
        for (int i = 0; i < 50; i++) {
            GetResponse r = getResponse(node, "k" + i);
            assertThat(r.getKv().getValue().toStringUtf8()).isEqualTo("v" + i);
            assertThat(r.getKv().getVersion()).as("k" + i + " applied once").isEqualTo(1);
        }
        assertThat(node.stateMachine().revision()).isGreaterThanOrEqualTo(revision);
        long next = put("after", "restart").getHeader().getRevision();
        assertThat(next).as("revisions go on from the last write").isEqualTo(node.stateMachine().revision())
                .isGreaterThan(revision);
        assertThat(getResponse(node, "after").getKv().getCreateRevision()).isEqualTo(next);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    @Test
    void eachWriteTakesTheNextRevisionWhateverTheLogIndex() throws Exception {
        node = start(Map.of());
        long first = put("r", "1").getHeader().getRevision();
        long indexBefore = node.status().appliedIndex();
        // Concurrent writes share log entries, but each still takes a revision of its own.
        java.util.List<CompletableFuture<WriteReply>> writes = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            writes.add(node.write(Command.newBuilder().setPut(PutRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8("r" + i)).setValue(ByteString.copyFromUtf8("v"))).build()));
        }
        java.util.Set<Long> revisions = new java.util.TreeSet<>();
        for (CompletableFuture<WriteReply> w : writes) {
            revisions.add(w.get(10, TimeUnit.SECONDS).as(PutResponse.class, PutResponse.parser()).getHeader().getRevision());
        }
        assertThat(revisions).hasSize(200);
        assertThat(((java.util.TreeSet<Long>) revisions).first()).isEqualTo(first + 1);
        assertThat(((java.util.TreeSet<Long>) revisions).last()).isEqualTo(first + 200);
        assertThat(node.stateMachine().revision()).isEqualTo(first + 200);
        assertThat(node.status().appliedIndex()).as("fewer log entries than writes").isLessThan(indexBefore + 200);
    }

    @Test
    void periodicSnapshotsFlushAndLetTheLogBePurged() throws Exception {
        node = start(Map.of("strata.raft.snapshot.threshold-entries", "20", "strata.raft.log.segment-size", "16KiB"));
        String value = "x".repeat(200);
        for (int i = 0; i < 300; i++) {
            put("k" + i, value);
        }
        Await.until(() -> node.status().logStartIndex() > 0, WAIT, "the log to be purged after a snapshot");
        NodeStatus s = node.status();
        assertThat(s.durableIndex()).isGreaterThanOrEqualTo(s.logStartIndex() - 1);
        assertThat(node.stateMachine().snapshotsTaken()).isPositive();
        node.close();
        node = start(Map.of("strata.raft.snapshot.threshold-entries", "20", "strata.raft.log.segment-size", "16KiB"));
        assertThat(node.status().logStartIndex()).isPositive();
        for (int i = 0; i < 300; i++) {
            assertThat(get(node, "k" + i)).isEqualTo(value);
        }
    }

    @Test
    void theOpenLogSegmentIsFilledWithZerosOnlyAPageAheadOfItsEntries() throws Exception {
        node = start(Map.of());
        for (int i = 0; i < 20; i++) {
            put("k" + i, "v".repeat(100));
        }
        Path open;
        try (Stream<Path> files = Files.walk(dir)) {
            open = files.filter(f -> f.getFileName().toString().startsWith("log_inprogress_")).findFirst().orElseThrow();
        }
        // 20 entries of about 150 bytes: zeros 4 MiB ahead would make the file at least that long,
        // and the disk would be written twice for every entry.
        assertThat(Files.size(open)).isLessThan(RaftSettings.LOG_PREALLOCATION + 20 * 1024);
    }

    @Test
    void theLogIsPurgedUpToTheEnginesFlushesWithoutACheckpoint() throws Exception {
        Map<String, String> settings = PURGES_FROM_FLUSHES_ONLY;
        node = start(settings);
        String value = "v".repeat(1000);
        // About 3 MiB of puts: the engine flushes its 1 MiB write buffer a few times.
        for (int i = 0; i < 3000; i++) {
            put("k" + i, value + i);
        }
        Await.until(() -> node.status().logStartIndex() > 0, WAIT, "the log to be purged up to the engine's flushes");
        NodeStatus status = node.status();
        assertThat(node.stateMachine().snapshotsTaken()).as("no checkpoint was taken").isZero();
        assertThat(status.logStartIndex()).as("only what the engine's files hold is purged")
                .isLessThanOrEqualTo(status.durableIndex() + 1);

        // A restart reads the shorter log and the engine's files: every write is there.
        node.close();
        node = start(settings);
        for (int i = 0; i < 3000; i += 97) {
            assertThat(get(node, "k" + i)).isEqualTo(value + i);
        }
        assertThat(get(node, "k2999")).isEqualTo(value + 2999);
    }

    @Test
    void afterACrashTheLogIsPurgedOnlyOnceFlushesCoverWhatTheEngineHeldAtOpen(@TempDir Path crashed) throws Exception {
        Map<String, String> settings = PURGES_FROM_FLUSHES_ONLY;
        node = start(settings);
        String value = "v".repeat(1000);
        // One and a half 1 MiB write buffers: a flush, then half a buffer only in the engine's log.
        for (int i = 0; i < 1500; i++) {
            put("k" + i, value + i);
        }
        Await.until(() -> node.status().durableIndex() > 0, WAIT, "the first flush");
        long held = node.status().appliedIndex();
        long durableBefore = node.status().durableIndex();
        assertThat(durableBefore).isLessThan(held);
        copyTree(dir, crashed);
        node.close();
        Map<String, String> restarted = new HashMap<>(settings);
        restarted.put("strata.data.dir", crashed.toString());
        node = start(restarted);
        assertThat(node.status().durableIndex()).isEqualTo(durableBefore);

        // Small writes that do not fill the kept memtable: the purge trigger reports the durable
        // marker, which is below where Ratis started, so nothing is purged and nothing breaks.
        for (int i = 0; i < 300; i++) {
            put("small" + i, "s");
        }
        assertThat(node.status().durableIndex()).isEqualTo(durableBefore);
        assertThat(node.stateMachine().failure()).isNull();

        // Writes fill the memtable the open kept: its flushes move the durable marker past what
        // the engine held, and only then does Ratis purge.
        for (int i = 1500; i < 3500; i++) {
            put("k" + i, value + i);
        }
        Await.until(() -> node.status().logStartIndex() > held, WAIT, "the log to be purged past what the engine held");
        NodeStatus status = node.status();
        assertThat(status.logStartIndex()).isLessThanOrEqualTo(status.durableIndex() + 1);
        assertThat(put("after", "purge").getHeader().getRevision()).isPositive();
        node.close();
        node = start(restarted);
        for (int i = 0; i < 3500; i += 89) {
            assertThat(get(node, "k" + i)).isEqualTo(value + i);
        }
        assertThat(get(node, "k3499")).isEqualTo(value + 3499);
        assertThat(get(node, "after")).isEqualTo("purge");
    }

    @Test
    void anOperatorsCheckpointCoversEverythingAppliedEvenTwiceInARow() throws Exception {
        node = start(Map.of());
        put("a", "1");
        long applied = node.stateMachine().getLastAppliedTermIndex().getIndex();
        long first = node.checkpoint(WAIT);
        assertThat(first).isGreaterThanOrEqualTo(applied);
        assertThat(node.status().durableIndex()).isGreaterThanOrEqualTo(applied);
        // Nothing written since: Ratis answers from the engine's files without a new snapshot.
        assertThat(node.checkpoint(WAIT)).isEqualTo(first);
        assertThat(node.stateMachine().checkpoints().nowPending()).as("no request left for a later snapshot").isFalse();
        put("b", "2");
        assertThat(node.checkpoint(WAIT)).isGreaterThan(first);
    }

    @Test
    void pauseAndReinitializeReallyMoveTheLifecycle() throws Exception {
        node = start(Map.of());
        put("a", "1");
        KvStateMachine sm = node.stateMachine();
        sm.pause();
        assertThat(sm.getLifeCycleState()).isEqualTo(LifeCycle.State.PAUSED);
        assertThatThrownBy(() -> get(node, "a")).isInstanceOf(NodeUnavailableException.class).hasMessageContaining("paused");
        sm.reinitialize();
        assertThat(sm.getLifeCycleState()).isEqualTo(LifeCycle.State.RUNNING);
        // Pausing closed (flushed) the engine: the reload reports what its files hold.
        assertThat(sm.getLatestSnapshot().getIndex()).isEqualTo(sm.getLastAppliedTermIndex().getIndex());
        assertThat(get(node, "a")).isEqualTo("1");
    }

    @Test
    void staleQueriesWaitForTheirMinimumIndex() throws Exception {
        node = start(Map.of());
        put("s", "1");
        Message query = Message.valueOf(UnsafeByteOperations.unsafeWrap(Query.newBuilder()
                .setGet(GetRequest.newBuilder().setKey(ByteString.copyFromUtf8("s"))).build().toByteArray()));
        CompletableFuture<Message> now = node.stateMachine().queryStale(query, node.status().appliedIndex());
        assertThat(GetResponse.parseFrom(now.get(5, TimeUnit.SECONDS).getContent().asReadOnlyByteBuffer()).getKv().getValue().toStringUtf8())
                .isEqualTo("1");
        // Stale queries name a log index, not a revision: wait for one well ahead.
        long target = node.status().appliedIndex() + 10;
        CompletableFuture<Message> later = node.stateMachine().queryStale(query, target);
        assertThat(later).isNotDone();
        for (int i = 0; !later.isDone() && i < 50; i++) {
            put("s", "v" + i);
        }
        assertThat(GetResponse.parseFrom(later.get(5, TimeUnit.SECONDS).getContent().asReadOnlyByteBuffer()).getKv().getValue().toStringUtf8())
                .startsWith("v");
        assertThat(node.status().appliedIndex()).isGreaterThanOrEqualTo(target);
    }
}
