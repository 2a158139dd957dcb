package dev.strata.server.checkpoint;

import dev.strata.engine.Checkpoint;
import dev.strata.engine.DeltaChain;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.KeyValue;
import dev.strata.engine.KeyValueIterator;
import dev.strata.engine.WalMode;
import dev.strata.engine.WriteBatch;
import dev.strata.engine.checkpoint.StagedFiles;
import dev.strata.proto.internal.v1.CheckpointTransferGrpc;
import dev.strata.proto.internal.v1.Plan;
import dev.strata.proto.internal.v1.PlannedFile;
import dev.strata.proto.internal.v1.TransferMessage;
import dev.strata.proto.internal.v1.TransferRequest;
import dev.strata.server.raft.AppliedMarker;
import dev.strata.transfer.CheckpointFetcher;
import dev.strata.transfer.CheckpointInstall;
import dev.strata.transfer.CheckpointStats;
import dev.strata.transfer.Chunks;
import dev.strata.transfer.StagedCheckpoint;
import dev.strata.transfer.StagingArea;
import dev.strata.transfer.TransferReport;
import io.grpc.ForwardingServerCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import org.apache.ratis.server.protocol.TermIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkpoint transfer between two engines over real gRPC on loopback, without Raft:
 * plans, chunk verification, resume after a broken stream, a corrupt chunk, a change of
 * sender, and compaction while a transfer is under way. Writes carry explicit sequences and
 * (term, index) markers, as the server's do.
 */
class CheckpointTransferTest {
    @TempDir
    Path dir;

    private final Random rnd = new Random(5);
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final ExecutorService senders = Executors.newCachedThreadPool();
    private long sequence;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        senders.shutdownNow();
    }

    static EngineOptions options() {
        return EngineOptions.builder().walMode(WalMode.DISABLED).writeBufferSize(64 * 1024).blockSize(1024)
                .targetFileSize(64 * 1024).level1MaxBytes(128 * 1024).level0CompactionTrigger(2)
                .minBlobSize(512).valueLogFileSize(64 * 1024).deltaRetention(10).build();
    }

    private Engine open(String name, EngineOptions options) {
        Engine e = Engine.open(dir.resolve(name), options);
        toClose.add(e);
        return e;
    }

    /** {@code n} puts and some deletes at the next sequences, into every engine given. */
    private void write(int n, Engine... engines) {
        for (int i = 0; i < n; i++) {
            sequence++;
            byte[] k = ("key" + rnd.nextInt(3000)).getBytes();
            WriteBatch b = new WriteBatch();
            if (rnd.nextInt(10) == 0) {
                b.delete(k);
            } else {
                byte[] v = new byte[rnd.nextInt(4) == 0 ? 600 + rnd.nextInt(2000) : 20 + rnd.nextInt(60)];
                for (int j = 0; j < v.length; j++) {
                    v[j] = (byte) ('a' + rnd.nextInt(4)); // compressible, as real values often are
                }
                b.put(k, v);
            }
            b.setAppliedMarker(AppliedMarker.encode(TermIndex.valueOf(1, sequence), sequence));
            for (Engine e : engines) {
                e.write(b, sequence);
            }
        }
    }

    private static CheckpointSource source(Engine e, long id) {
        return new CheckpointSource() {
            @Override
            public long nodeId() {
                return id;
            }

            @Override
            public Checkpoint checkpoint(boolean fresh) {
                Checkpoint latest = e.latestCheckpoint();
                return fresh || latest == null ? e.checkpoint() : latest;
            }

            @Override
            public DeltaChain deltaChain() {
                return e.deltaChain();
            }
        };
    }

    /** Serves {@code engine}'s checkpoints on a loopback port, with {@code interceptor} in front; returns the address. */
    private String serve(Engine engine, long id, ServerInterceptor interceptor) throws IOException {
        Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(new CheckpointTransferService(source(engine, id), new CheckpointStats(),
                        senders), interceptor))
                .build().start();
        toClose.add(() -> server.shutdownNow().awaitTermination());
        return "127.0.0.1:" + server.getPort();
    }

    private String serve(Engine engine) throws IOException {
        return serve(engine, 1, passThrough());
    }

    private CheckpointFetcher fetcher(String stagingName) throws IOException {
        CheckpointFetcher f = new CheckpointFetcher(new StagingArea(dir.resolve(stagingName)), new CheckpointStats(), 5,
                Duration.ofSeconds(30), InsecureChannelCredentials.create());
        toClose.add(f);
        return f;
    }

    private static CheckpointFetcher.Request fromEmpty() {
        return new CheckpointFetcher.Request(0, false, false, 0, Map.of());
    }

    /** Installs {@code staged} into a new engine directory and opens it. */
    private Engine installInto(String name, StagedCheckpoint staged) throws IOException {
        CheckpointInstall.install(staged, dir.resolve(name), options());
        return open(name, options());
    }

    private static List<String> contents(Engine e) {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator it = e.scan(null, null)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                out.add(new String(kv.key()) + "=" + Arrays.hashCode(kv.value()));
            }
        }
        return out;
    }

    @Test
    void aFullCheckpointArrivesVerifiedCompressedAndInstallsIntoAnEmptyNode() throws IOException {
        Engine leader = open("leader", options());
        write(4000, leader);
        Checkpoint cp = leader.checkpoint();

        StagedCheckpoint staged = fetcher("staging").fetch(fromEmpty(), () -> {
            try {
                return serve(leader);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });

        assertThat(staged.kind()).isEqualTo(Plan.Kind.FULL);
        assertThat(staged.index()).isEqualTo(cp.sequence());
        assertThat(staged.term()).isEqualTo(1);
        TransferReport r = staged.report();
        assertThat(r.filesReceived()).isEqualTo(cp.files().size());
        assertThat(r.rawBytes()).isEqualTo(cp.manifest().totalBytes());
        assertThat(r.wireBytes()).as("compressible value logs travel compressed").isLessThan(r.rawBytes());
        Engine follower = installInto("follower", staged);
        assertThat(contents(follower)).isEqualTo(contents(leader));
        assertThat(AppliedMarker.decode(follower.appliedMarker())).isEqualTo(TermIndex.valueOf(1, cp.sequence()));
    }

    @Test
    void aLaggingNodeReceivesOnlyTheDeltasItMissed() throws IOException {
        Engine leader = open("leader", options());
        String address = serve(leader);
        write(6000, leader);
        leader.checkpoint();
        Engine follower = installInto("follower", fetcher("s1").fetch(fromEmpty(), () -> address));
        long followerAt = follower.lastSequence();

        write(300, leader);
        Checkpoint latest = leader.checkpoint();
        StagedCheckpoint staged = fetcher("s2").fetch(
                new CheckpointFetcher.Request(followerAt, true, false, latest.sequence(), Map.of()), () -> address);

        assertThat(staged.kind()).isEqualTo(Plan.Kind.DELTAS);
        assertThat(staged.index()).isGreaterThanOrEqualTo(latest.sequence());
        assertThat(staged.report().rawBytes()).as("a small fraction of the full checkpoint")
                .isLessThan(latest.manifest().totalBytes() / 4);
        follower.close();
        toClose.remove(follower);
        Engine caughtUp = installInto("follower", staged);
        assertThat(contents(caughtUp)).isEqualTo(contents(leader));
    }

    @Test
    void aBrokenStreamResumesWithoutSendingFinishedFilesAgain() throws IOException {
        Engine leader = open("leader", options());
        write(6000, leader);
        Checkpoint cp = leader.checkpoint();
        AtomicInteger calls = new AtomicInteger();
        // The first call breaks after its plan and a few chunks.
        String address = serve(leader, 1, mutating(calls, (call, m) -> call == 1 && m > 4 ? null : UnaryOperator.identity()));

        StagedCheckpoint staged = fetcher("staging").fetch(fromEmpty(), () -> address);

        assertThat(calls.get()).isEqualTo(2);
        assertThat(staged.report().attempts()).isEqualTo(2);
        assertThat(staged.report().rawBytes()).as("every byte came once").isEqualTo(cp.manifest().totalBytes());
        assertThat(contents(installInto("follower", staged))).isEqualTo(contents(leader));
    }

    @Test
    void aCorruptChunkIsRejectedAndFetchedAgain() throws IOException {
        Engine leader = open("leader", options());
        write(4000, leader);
        leader.checkpoint();
        AtomicInteger calls = new AtomicInteger();
        String address = serve(leader, 1, mutating(calls, (call, m) -> call == 1 && m == 3 ? CheckpointTransferTest::flipAByte
                : UnaryOperator.identity()));

        StagedCheckpoint staged = fetcher("staging").fetch(fromEmpty(), () -> address);

        assertThat(staged.report().corruptChunks()).isEqualTo(1);
        assertThat(calls.get()).isEqualTo(2);
        assertThat(contents(installInto("follower", staged))).isEqualTo(contents(leader));
    }

    @Test
    void aNewSenderMidTransferGivesANewPlanThatStillEndsCorrect() throws IOException {
        // Two replicas with the same writes but differently cut tables, as two nodes have.
        Engine first = open("first", options());
        Engine second = open("second", options().toBuilder().writeBufferSize(96 * 1024).build());
        write(6000, first, second);
        first.checkpoint();
        second.checkpoint();
        AtomicInteger calls = new AtomicInteger();
        String breaking = serve(first, 1, mutating(calls, (call, m) -> m > 4 ? null : UnaryOperator.identity()));
        String healthy = serve(second, 2, passThrough());
        AtomicInteger asked = new AtomicInteger();

        StagedCheckpoint staged = fetcher("staging").fetch(fromEmpty(), () -> asked.incrementAndGet() == 1 ? breaking : healthy);

        assertThat(staged.report().senderId()).isEqualTo(2);
        assertThat(contents(installInto("follower", staged))).isEqualTo(contents(second)).isEqualTo(contents(first));
    }

    @Test
    void compactionDuringATransferDeletesNoFileBeingSent() throws Exception {
        Engine leader = open("leader", options().toBuilder().checkpointsToKeep(1).build());
        write(6000, leader);
        leader.checkpoint();
        ManagedChannel channel = Grpc.newChannelBuilder(serve(leader), InsecureChannelCredentials.create())
                .maxInboundMessageSize(4 << 20).build();
        toClose.add(channel::shutdownNow);
        Iterator<TransferMessage> stream = CheckpointTransferGrpc.newBlockingStub(channel)
                .transfer(TransferRequest.newBuilder().build());
        Plan plan = stream.next().getPlan();
        Path received = dir.resolve("received");
        java.nio.file.Files.createDirectories(received);

        // While the plan is open: overwrite everything, compact it all away, retire its checkpoint.
        write(6000, leader);
        leader.compactRange(null, null);
        leader.checkpoint();
        leader.checkpoint();

        List<java.io.OutputStream> outs = new ArrayList<>();
        for (PlannedFile f : plan.getFilesList()) {
            outs.add(java.nio.file.Files.newOutputStream(received.resolve(f.getName())));
        }
        while (stream.hasNext()) {
            var c = stream.next().getChunk();
            java.nio.channels.Channels.newChannel(outs.get(c.getFile())).write(Chunks.decode(c));
        }
        for (var o : outs) {
            o.close();
        }
        for (PlannedFile f : plan.getFilesList()) {
            StagedFiles.verify(received.resolve(f.getName()), new dev.strata.engine.checkpoint.ContentId(
                    f.getContent().getSize(), f.getContent().getCrc32C()));
        }
    }

    // ------------------------------------------------------------------ faults on the sending side

    /** Per call number and message number (0 is the plan), what to do to the message: null breaks the call there. */
    private interface Mutation {
        UnaryOperator<TransferMessage> at(int call, int message);
    }

    private static ServerInterceptor passThrough() {
        return new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
                return next.startCall(call, headers);
            }
        };
    }

    private static ServerInterceptor mutating(AtomicInteger calls, Mutation mutation) {
        return new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
                int callNumber = calls.incrementAndGet();
                return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                    private int messages;
                    private boolean broken;

                    @Override
                    @SuppressWarnings("unchecked")
                    public void sendMessage(A message) {
                        if (broken) {
                            return;
                        }
                        UnaryOperator<TransferMessage> m = mutation.at(callNumber, messages++);
                        if (m == null) {
                            broken = true;
                            super.close(Status.UNAVAILABLE.withDescription("test: connection lost"), new Metadata());
                            return;
                        }
                        super.sendMessage((A) m.apply((TransferMessage) message));
                    }

                    @Override
                    public void close(Status status, Metadata trailers) {
                        if (!broken) {
                            super.close(status, trailers);
                        }
                    }
                }, headers);
            }
        };
    }

    private static TransferMessage flipAByte(TransferMessage m) {
        byte[] data = m.getChunk().getData().toByteArray();
        data[data.length / 2] ^= 0x40;
        return m.toBuilder().setChunk(m.getChunk().toBuilder().setData(com.google.protobuf.ByteString.copyFrom(data))).build();
    }
}
