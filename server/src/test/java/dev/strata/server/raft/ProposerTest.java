package dev.strata.server.raft;

import com.google.protobuf.ByteString;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.v1.PutRequest;
import dev.strata.proto.v1.PutResponse;
import dev.strata.proto.v1.ResponseHeader;
import dev.strata.server.kv.CommandApplier;
import dev.strata.server.kv.InvalidRequestException;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the proposer forms batches, where it sends them, and how it retries and gives up; over a fake transport. */
class ProposerTest {
    private static final RaftGroupId GROUP = RaftGroupId.randomId();
    private static final RaftPeerId SELF = RaftPeerId.valueOf("1");
    private static final RaftPeerId OTHER = RaftPeerId.valueOf("2");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final FakeTransport transport = new FakeTransport();

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    /** Records every request; each answer is decided by the test through the request's future. */
    private static final class FakeTransport implements Proposer.Transport {
        volatile boolean leading = true;
        volatile RaftPeerId leader = SELF;
        final List<RaftClientRequest> local = new ArrayList<>();
        final List<RaftClientRequest> remote = new ArrayList<>();
        final List<RaftPeerId> remoteTargets = new ArrayList<>();
        final List<CompletableFuture<RaftClientReply>> answers = new ArrayList<>();
        final AtomicInteger transportFailures = new AtomicInteger();
        volatile IOException sendFailure;

        @Override
        public boolean leading() {
            return leading;
        }

        @Override
        public RaftPeerId leader() {
            return leader;
        }

        @Override
        public synchronized CompletableFuture<RaftClientReply> submitLocally(RaftClientRequest request) {
            local.add(request);
            CompletableFuture<RaftClientReply> f = new CompletableFuture<>();
            answers.add(f);
            return f;
        }

        @Override
        public synchronized CompletableFuture<RaftClientReply> send(RaftPeerId target, RaftClientRequest request) throws IOException {
            if (sendFailure != null) {
                IOException e = sendFailure;
                sendFailure = null;
                throw e;
            }
            remote.add(request);
            remoteTargets.add(target);
            CompletableFuture<RaftClientReply> f = new CompletableFuture<>();
            answers.add(f);
            return f;
        }

        @Override
        public void transportFailed(RaftPeerId target, Throwable cause) {
            transportFailures.incrementAndGet();
        }

        synchronized CompletableFuture<RaftClientReply> answer(int i) {
            return answers.get(i);
        }

        synchronized int sent() {
            return answers.size();
        }
    }

    private Proposer proposer(int maxInFlight, long maxBytes, Duration timeout) {
        return proposer(maxInFlight, maxBytes, timeout, Long.MAX_VALUE);
    }

    private Proposer proposer(int maxInFlight, long maxBytes, Duration timeout, long maxQueuedBytes) {
        return new Proposer(SELF, GROUP, transport, new Proposer.Limits(maxInFlight, 100, maxBytes, timeout, maxQueuedBytes),
                Runnable::run, timers);
    }

    private static Command put(String key) {
        return Command.newBuilder().setPut(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                .setValue(ByteString.copyFromUtf8("v"))).build();
    }

    private static List<String> keys(RaftClientRequest request) {
        Command entry = ((CommandMessage) request.getMessage()).command();
        return entry.getProposals().getCommandsList().stream().map(c -> c.getPut().getKey().toStringUtf8()).toList();
    }

    /** A leader's reply applying every write of {@code request}, the i-th at revision base + i. */
    private static RaftClientReply applied(RaftClientRequest request, long base, int refused) {
        List<CommandApplier.Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < keys(request).size(); i++) {
            outcomes.add(i == refused ? new CommandApplier.Refused(new InvalidRequestException("refused " + i))
                    : new CommandApplier.Applied(PutResponse.newBuilder().setHeader(ResponseHeader.newBuilder().setRevision(base + i)).build()));
        }
        return reply(request, new OutcomesMessage(outcomes), null);
    }

    private static RaftClientReply reply(RaftClientRequest request, Message message, RaftException exception) {
        RaftClientReply.Builder b = RaftClientReply.newBuilder().setClientId(request.getClientId()).setServerId(request.getServerId())
                .setGroupId(request.getRaftGroupId()).setCallId(request.getCallId());
        return exception == null ? b.setSuccess().setMessage(message).build() : b.setException(exception).build();
    }

    private static long revision(CompletableFuture<WriteReply> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS).as(PutResponse.class, PutResponse.parser()).getHeader().getRevision();
    }

    @Test
    void anIdleProposerSendsALoneWriteAtOnceToItsOwnServerWhenItLeads() throws Exception {
        Proposer p = proposer(4, 1 << 20, TIMEOUT);
        CompletableFuture<WriteReply> a = p.propose(put("a"));
        assertThat(transport.local).hasSize(1);
        assertThat(keys(transport.local.get(0))).containsExactly("a");
        transport.answer(0).complete(applied(transport.local.get(0), 7, -1));
        assertThat(revision(a)).isEqualTo(7);
    }

    @Test
    void writesThatArriveWhileTheBatchesAreInFlightGoTogetherInTheNext() throws Exception {
        Proposer p = proposer(1, 1 << 20, TIMEOUT);
        CompletableFuture<WriteReply> a = p.propose(put("a"));
        CompletableFuture<WriteReply> b = p.propose(put("b"));
        CompletableFuture<WriteReply> c = p.propose(put("c"));
        CompletableFuture<WriteReply> d = p.propose(put("d"));
        assertThat(transport.sent()).as("one batch in flight at most").isEqualTo(1);
        transport.answer(0).complete(applied(transport.local.get(0), 10, -1));
        assertThat(revision(a)).isEqualTo(10);
        assertThat(transport.sent()).isEqualTo(2);
        assertThat(keys(transport.local.get(1))).containsExactly("b", "c", "d");
        assertThat(transport.local.get(1).getCallId()).isNotEqualTo(transport.local.get(0).getCallId());

        transport.answer(1).complete(applied(transport.local.get(1), 11, 1));
        assertThat(revision(b)).isEqualTo(11);
        assertThatThrownBy(() -> c.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(InvalidRequestException.class)
                .hasMessage("refused 1");
        assertThat(revision(d)).as("a refused write fails alone").isEqualTo(13);
    }

    @Test
    void besideABatchInFlightOnlyFullBatchesLeaveUpToTheMostInFlight() throws Exception {
        int size = put("k0").getSerializedSize();
        Proposer p = proposer(3, 2L * size, TIMEOUT);
        List<CompletableFuture<WriteReply>> writes = new ArrayList<>();
        writes.add(p.propose(put("k0")));
        writes.add(p.propose(put("k1")));
        assertThat(transport.sent()).as("a partial batch waits for the one in flight").isEqualTo(1);
        writes.add(p.propose(put("k2")));
        assertThat(transport.sent()).as("a full batch leaves beside it").isEqualTo(2);
        writes.add(p.propose(put("k3")));
        writes.add(p.propose(put("k4")));
        writes.add(p.propose(put("k5")));
        writes.add(p.propose(put("k6")));
        assertThat(transport.sent()).as("no more than three in flight").isEqualTo(3);
        assertThat(transport.local).extracting(ProposerTest::keys)
                .containsExactly(List.of("k0"), List.of("k1", "k2"), List.of("k3", "k4"));

        transport.answer(0).complete(applied(transport.local.get(0), 0, -1));
        assertThat(transport.sent()).as("the full batch waiting takes the place given back").isEqualTo(4);
        assertThat(keys(transport.local.get(3))).containsExactly("k5", "k6");
        writes.add(p.propose(put("k7")));
        transport.answer(1).complete(applied(transport.local.get(1), 1, -1));
        transport.answer(2).complete(applied(transport.local.get(2), 3, -1));
        assertThat(transport.sent()).as("a partial batch waits while any is in flight").isEqualTo(4);
        transport.answer(3).complete(applied(transport.local.get(3), 5, -1));
        assertThat(transport.sent()).isEqualTo(5);
        assertThat(keys(transport.local.get(4))).containsExactly("k7");
        transport.answer(4).complete(applied(transport.local.get(4), 7, -1));
        for (int i = 0; i < writes.size(); i++) {
            assertThat(revision(writes.get(i))).isEqualTo(i);
        }
    }

    @Test
    void aBatchHoldsNoMoreBytesThanTheLimitButALargerWriteStillGoesAlone() throws Exception {
        int size = put("k0").getSerializedSize();
        Proposer p = proposer(1, 2L * size, TIMEOUT);
        List<CompletableFuture<WriteReply>> writes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            writes.add(p.propose(put("k" + i)));
        }
        for (int i = 0; i < 3; i++) {
            transport.answer(i).complete(applied(transport.local.get(i), 100 * i, -1));
        }
        assertThat(transport.local).extracting(ProposerTest::keys)
                .containsExactly(List.of("k0"), List.of("k1", "k2"), List.of("k3", "k4"));

        Proposer tiny = proposer(1, 1, TIMEOUT);
        tiny.propose(put("big"));
        assertThat(keys(transport.local.get(3))).containsExactly("big");
    }

    @Test
    void aBatchRefusedByAFormerLeaderGoesToTheLeaderItNamesWithTheSameIds() throws Exception {
        Proposer p = proposer(4, 1 << 20, TIMEOUT);
        CompletableFuture<WriteReply> a = p.propose(put("a"));
        RaftClientRequest first = transport.local.get(0);
        transport.leading = false;
        transport.leader = null; // this node has not heard of the new leader yet; the refusal names it
        NotLeaderException notLeader = new NotLeaderException(RaftGroupMemberId.valueOf(SELF, GROUP),
                RaftPeer.newBuilder().setId(OTHER).setAddress("127.0.0.1:1").build(), List.of());
        transport.answer(0).complete(reply(first, null, notLeader));

        awaitSent(2);
        assertThat(transport.remoteTargets).containsExactly(OTHER);
        RaftClientRequest retry = transport.remote.get(0);
        assertThat(retry.getServerId()).isEqualTo(OTHER);
        assertThat(retry.getClientId()).as("Ratis's retry cache knows a batch by its client and call id").isEqualTo(first.getClientId());
        assertThat(retry.getCallId()).isEqualTo(first.getCallId());
        transport.answer(1).complete(applied(retry, 5, -1));
        assertThat(revision(a)).isEqualTo(5);
    }

    @Test
    void aBrokenConnectionIsRetriedWithTheSameIds() throws Exception {
        transport.leading = false;
        transport.leader = OTHER;
        Proposer p = proposer(4, 1 << 20, TIMEOUT);
        transport.sendFailure = new IOException("connection refused");
        CompletableFuture<WriteReply> a = p.propose(put("a"));
        awaitSent(1);
        transport.answer(0).completeExceptionally(new IOException("connection reset"));
        awaitSent(2);
        assertThat(transport.transportFailures).hasValue(1);
        assertThat(transport.remote.get(1).getCallId()).isEqualTo(transport.remote.get(0).getCallId());
        transport.answer(1).complete(applied(transport.remote.get(1), 9, -1));
        assertThat(revision(a)).isEqualTo(9);
    }

    @Test
    void aBatchNoLeaderTakesFailsWithTheLastReasonBeforeItsTimeout() {
        transport.leading = false;
        transport.leader = null;
        Proposer p = proposer(4, 1 << 20, Duration.ofMillis(300));
        CompletableFuture<WriteReply> a = p.propose(put("a"));
        assertThatThrownBy(() -> a.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(NodeUnavailableException.class)
                .hasMessageContaining("no leader took the write");
        assertThat(transport.sent()).isZero();
    }

    @Test
    void aBatchALeaderHoldsButDoesNotCommitTimesOut() {
        Proposer p = proposer(1, 1 << 20, Duration.ofMillis(200));
        CompletableFuture<WriteReply> a = p.propose(put("a"));
        CompletableFuture<WriteReply> b = p.propose(put("b"));
        assertThatThrownBy(() -> a.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(TimeoutException.class)
                .hasMessageContaining("may or may not have been applied");
        // Ratis still holds the batch (it may yet be applied), so it keeps its place in flight:
        // otherwise a Raft slower than the timeout would take ever more batches.
        assertThat(transport.sent()).isEqualTo(1);
        transport.answer(0).complete(applied(transport.local.get(0), 1, -1));
        awaitSent(2);
        assertThat(keys(transport.local.get(1))).containsExactly("b");
        assertThat(b).isNotDone();
    }

    @Test
    void closingFailsTheWritesThatWait() {
        Proposer p = proposer(1, 1 << 20, TIMEOUT);
        p.propose(put("a"));
        CompletableFuture<WriteReply> waiting = p.propose(put("b"));
        p.close();
        assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(NodeUnavailableException.class);
        assertThat(p.propose(put("c"))).isCompletedExceptionally();
    }

    @Test
    void aWriteWithdrawnBeforeItsBatchLeavesIsNotProposed() throws Exception {
        Proposer p = proposer(1, 1 << 20, TIMEOUT);
        CompletableFuture<WriteReply> a = p.propose(put("a"));
        CompletableFuture<WriteReply> gaveUp = p.propose(put("b"));
        CompletableFuture<WriteReply> c = p.propose(put("c"));
        gaveUp.cancel(false);
        transport.answer(0).complete(applied(transport.local.get(0), 1, -1));
        assertThat(revision(a)).isEqualTo(1);
        assertThat(keys(transport.local.get(1))).containsExactly("c");

        CompletableFuture<WriteReply> alone = p.propose(put("d"));
        alone.cancel(false);
        transport.answer(1).complete(applied(transport.local.get(1), 2, -1));
        assertThat(revision(c)).isEqualTo(2);
        assertThat(transport.sent()).as("a batch of withdrawn writes only is not sent").isEqualTo(2);
        CompletableFuture<WriteReply> e = p.propose(put("e"));
        assertThat(keys(transport.local.get(2))).as("and it took no place in flight").containsExactly("e");
        transport.answer(2).complete(applied(transport.local.get(2), 3, -1));
        assertThat(revision(e)).isEqualTo(3);
    }

    @Test
    void writesBeyondTheQueuedBytesAreRefusedButOneAlwaysFits() throws Exception {
        int size = put("k0").getSerializedSize();
        Proposer p = proposer(1, 1 << 20, TIMEOUT, 2L * size);
        p.propose(put("k0")); // in flight: not queued
        CompletableFuture<WriteReply> q1 = p.propose(put("k1"));
        CompletableFuture<WriteReply> q2 = p.propose(put("k2"));
        CompletableFuture<WriteReply> refused = p.propose(put("k3"));
        assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(WritesQueuedFullException.class)
                .hasMessageContaining("strata.raft.max-queued-write-bytes").hasMessageContaining("not applied");
        assertThat(q1).isNotDone();
        assertThat(q2).isNotDone();

        Proposer tiny = proposer(1, 1 << 20, TIMEOUT, 1);
        tiny.propose(put("x"));
        assertThat(tiny.propose(put("big, but the queue is empty"))).isNotDone();
    }

    private void awaitSent(int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (transport.sent() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + n + " requests, saw " + transport.sent());
            }
            Thread.onSpinWait();
        }
    }
}
