package dev.strata.server.raft;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.strata.proto.internal.v1.Command;
import dev.strata.proto.internal.v1.ProposalResult;
import dev.strata.proto.internal.v1.ProposalResults;
import dev.strata.proto.internal.v1.Proposals;
import dev.strata.server.kv.CommandApplier;
import dev.strata.server.kv.InvalidRequestException;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.protocol.exceptions.ResourceUnavailableException;
import org.apache.ratis.protocol.exceptions.ServerNotReadyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Proposes writes to the Raft log in batches. The commands that arrive while earlier batches
 * are being replicated travel together as one log entry (a {@code proposals} command), so the
 * cost of a Raft round (an entry appended, sent, fsynced by a majority, committed, applied) is
 * shared by every write in it, as a group commit shares an fsync. An idle proposer sends a lone
 * command at once, so batching never makes a write wait for company. While a batch is in flight
 * the next one leaves only once it is full (of {@link Limits#maxCommands} commands or
 * {@link Limits#maxBytes} bytes), up to {@link Limits#maxInFlight} batches: a Raft round costs
 * each node about the same CPU whether it carries one write or a hundred, so on a busy node a
 * partial batch waits for the round ahead of it and collects more writes, and only full batches
 * overlap their rounds.
 *
 * <p>On the leader a batch goes to the local Raft server directly; elsewhere it goes to the
 * leader over Ratis's client transport. A batch keeps its client id and call id through every
 * retry: Ratis's retry cache (kept by every member as it applies entries) answers a batch that
 * was already applied with its first reply, so a batch retried after a leader change or a
 * broken connection is applied at most once. Retries stop at 80% of the timeout, where the
 * batch fails with the last reason it could not be placed (no leader, a broken link:
 * UNAVAILABLE, before the server's request timeout answers DEADLINE_EXCEEDED); a batch that
 * reached a leader but is not committed fails with a {@link TimeoutException} at the timeout.
 * Either way whether it was applied is unknown, as for any write that timed out.
 *
 * <p>Replies may be reported on Raft threads that hold Ratis's locks, so nothing is submitted
 * to Ratis from there: the next batch is submitted on the {@code completions} executor, and
 * retries run on the {@code timers}.
 *
 * <p>Thread-safe.
 */
final class Proposer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Proposer.class);
    private static final long FIRST_RETRY_MILLIS = 10;
    private static final long MAX_RETRY_MILLIS = 500;

    /**
     * How batches are formed and how long one may take.
     *
     * @param maxInFlight batches replicating at once at most; a batch leaves beside others only when full
     * @param maxCommands commands in one batch at most
     * @param maxBytes    encoded commands in one batch at most (a single larger command goes alone)
     * @param timeout     from a batch's first attempt to giving up on it (the server's request timeout)
     * @param maxQueuedBytes encoded writes waiting for a batch at most; a write that would pass it
     *                    is refused with {@link WritesQueuedFullException} (one write always fits
     *                    an empty queue)
     */
    record Limits(int maxInFlight, int maxCommands, long maxBytes, Duration timeout, long maxQueuedBytes) {
        Limits {
            if (maxInFlight < 1 || maxCommands < 1 || maxBytes < 1 || timeout.isNegative() || timeout.isZero()
                    || maxQueuedBytes < 1) {
                throw new IllegalArgumentException("proposer limits must be positive: " + maxInFlight + ", " + maxCommands
                        + ", " + maxBytes + ", " + timeout + ", " + maxQueuedBytes);
            }
        }
    }

    /** Where batches go: this node's own Raft server when it leads, else the leader. */
    interface Transport {
        /** Whether this node leads now. */
        boolean leading();

        /** The leader this node knows of, or null. */
        RaftPeerId leader();

        /** Submits {@code request} to this node's Raft server. */
        CompletableFuture<RaftClientReply> submitLocally(RaftClientRequest request) throws IOException;

        /** Sends {@code request} to node {@code target} over the client transport. */
        CompletableFuture<RaftClientReply> send(RaftPeerId target, RaftClientRequest request) throws IOException;

        /** A request to {@code target} failed in transport; the connection may need renewing. */
        void transportFailed(RaftPeerId target, Throwable cause);
    }

    private record Pending(Command command, int size, CompletableFuture<WriteReply> future) {}

    /** One batch on its way: its fixed ids, the writes it carries, and where it stands. */
    private final class Batch {
        final long callId = callIds.incrementAndGet();
        final List<Pending> pending;
        final CommandMessage message;
        final long started = System.nanoTime();
        final long retryDeadline = started + limits.timeout().toNanos() * 8 / 10;
        /** Set once its writes are answered (replied, failed or timed out). */
        final AtomicBoolean done = new AtomicBoolean();
        /** Set once its place in flight is given back: when it is done and Ratis holds no attempt of it. */
        final AtomicBoolean released = new AtomicBoolean();
        /** An attempt is with Ratis (local or remote) and has not answered yet. */
        volatile boolean attemptInFlight;
        /** The deadline's timer task; cancelled when the batch is done, so the timer's queue does not keep the batch's writes alive. */
        volatile ScheduledFuture<?> deadlineTask;
        int attempts;
        RaftPeerId hint;
        Throwable lastFailure;

        Batch(List<Pending> pending) {
            this.pending = pending;
            Proposals.Builder b = Proposals.newBuilder();
            for (Pending p : pending) {
                b.addCommands(p.command());
            }
            this.message = new CommandMessage(Command.newBuilder().setProposals(b).build());
        }

        RaftClientRequest request(RaftPeerId server) {
            return RaftClientRequest.newBuilder()
                    .setClientId(clientId)
                    .setServerId(server)
                    .setGroupId(groupId)
                    .setCallId(callId)
                    .setMessage(message)
                    .setType(RaftClientRequest.writeRequestType())
                    .build();
        }
    }

    private final RaftPeerId selfId;
    private final RaftGroupId groupId;
    private final Transport transport;
    private final Limits limits;
    private final Executor completions;
    private final ScheduledExecutorService timers;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    /** Guarded by {@code this}. */
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    /** Encoded bytes of the writes in {@link #queue}. Guarded by {@code this}. */
    private long queuedBytes;
    /** Guarded by {@code this}. */
    private int inFlight;
    /** Guarded by {@code this}. */
    private boolean closed;

    /**
     * @param completions runs the delivery of replies (and the next batch's submission), off
     *                    Ratis's apply thread and its transport threads
     * @param timers      runs retries after a pause and the batches' deadlines; it should drop
     *                    cancelled tasks at once ({@code setRemoveOnCancelPolicy(true)}), or
     *                    every batch stays reachable until its deadline
     */
    Proposer(RaftPeerId selfId, RaftGroupId groupId, Transport transport, Limits limits, Executor completions,
             ScheduledExecutorService timers) {
        this.selfId = selfId;
        this.groupId = groupId;
        this.transport = transport;
        this.limits = limits;
        this.completions = completions;
        this.timers = timers;
    }

    /**
     * Replicates {@code command} and completes with the leader's response once a majority has
     * it and the leader applied it. Fails with the command's refusal
     * ({@link InvalidRequestException}, a storage failure), with
     * {@link WritesQueuedFullException} when too many bytes of writes already wait, or as the
     * class comment says. Cancelling the returned future before its batch leaves withdraws the
     * write (its client gave up); once the batch has left, the write goes on.
     */
    CompletableFuture<WriteReply> propose(Command command) {
        Pending p = new Pending(command, command.getSerializedSize(), new CompletableFuture<>());
        List<Pending> batch;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(new NodeUnavailableException("the node is stopping"));
            }
            if (!queue.isEmpty() && queuedBytes + p.size() > limits.maxQueuedBytes()) {
                return CompletableFuture.failedFuture(new WritesQueuedFullException("node " + selfId + " has "
                        + queuedBytes + " bytes of writes waiting for Raft, the most it holds"
                        + " (strata.raft.max-queued-write-bytes); the write was not applied, retry it later"));
            }
            queue.add(p);
            queuedBytes += p.size();
            batch = mayStartBatch() ? takeBatch() : null;
        }
        if (batch != null) {
            start(new Batch(batch));
        }
        return p.future();
    }

    /**
     * Whether the waiting writes may leave as a batch now: when none is in flight, or when they
     * fill a batch and fewer than the most are in flight. Requires the lock.
     */
    private boolean mayStartBatch() {
        if (queue.isEmpty()) {
            return false;
        }
        if (inFlight == 0) {
            return true;
        }
        return inFlight < limits.maxInFlight()
                && (queue.size() >= limits.maxCommands() || queuedBytes >= limits.maxBytes());
    }

    /**
     * Takes the next batch off the queue and counts it in flight, or returns null when every
     * waiting write was withdrawn. Requires the lock.
     */
    private List<Pending> takeBatch() {
        List<Pending> batch = new ArrayList<>(Math.min(queue.size(), limits.maxCommands()));
        long bytes = 0;
        while (!queue.isEmpty() && batch.size() < limits.maxCommands()
                && (batch.isEmpty() || bytes + queue.peekFirst().size() <= limits.maxBytes())) {
            Pending next = queue.pollFirst();
            queuedBytes -= next.size();
            if (next.future().isDone()) {
                continue; // withdrawn: its client gave up before the write left
            }
            bytes += next.size();
            batch.add(next);
        }
        if (batch.isEmpty()) {
            return null;
        }
        inFlight++;
        return batch;
    }

    private void start(Batch b) {
        long delay = b.started + limits.timeout().toNanos() - System.nanoTime();
        b.deadlineTask = timers.schedule(() -> finish(b, null), Math.max(0, delay), TimeUnit.NANOSECONDS);
        attempt(b);
    }

    private void attempt(Batch b) {
        if (b.done.get()) {
            return;
        }
        b.attempts++;
        RaftPeerId target;
        CompletableFuture<RaftClientReply> sent;
        try {
            if (transport.leading()) {
                target = selfId;
                sent = transport.submitLocally(b.request(selfId));
            } else {
                target = b.hint != null && !b.hint.equals(selfId) ? b.hint : transport.leader();
                b.hint = null;
                if (target == null || target.equals(selfId)) {
                    b.lastFailure = new NodeUnavailableException("no leader took the write in time");
                    retryLater(b);
                    return;
                }
                sent = transport.send(target, b.request(target));
            }
        } catch (IOException | RuntimeException e) {
            b.lastFailure = e;
            retryLater(b);
            return;
        }
        RaftPeerId to = target;
        b.attemptInFlight = true;
        sent.whenComplete((reply, error) -> handle(b, to, reply, error));
    }

    private void handle(Batch b, RaftPeerId target, RaftClientReply reply, Throwable error) {
        b.attemptInFlight = false;
        if (b.done.get()) {
            // Given up at its deadline while Ratis still held it: its place is free only now.
            releaseLater(b);
            return;
        }
        if (error != null) {
            Throwable cause = unwrap(error);
            transport.transportFailed(target, cause);
            b.lastFailure = cause;
            retryLater(b);
            return;
        }
        if (reply.isSuccess()) {
            // Delivered here, on the thread that reported the reply: answering the clients calls
            // nothing in Ratis, and a thread switch per batch would add to every write's latency.
            // Starting the next batch does call Ratis, so that runs on the completions executor.
            if (b.done.compareAndSet(false, true)) {
                cancelDeadline(b);
                deliver(b, reply.getMessage());
            }
            releaseLater(b);
            return;
        }
        RaftException e = reply.getException();
        if (e instanceof NotLeaderException nle) {
            b.hint = nle.getSuggestedLeader() == null ? null : nle.getSuggestedLeader().getId();
            b.lastFailure = e;
            retryLater(b);
        } else if (e instanceof LeaderNotReadyException || e instanceof LeaderSteppingDownException
                || e instanceof ResourceUnavailableException || e instanceof ServerNotReadyException) {
            b.lastFailure = e;
            retryLater(b);
        } else {
            Throwable failure = e != null ? e : new IOException("a write failed without a reason: " + reply);
            completions.execute(() -> finish(b, failure));
        }
    }

    /**
     * Tries again after a pause that doubles with each attempt; a batch whose retries would run
     * past its retry deadline fails now with its last failure.
     */
    private void retryLater(Batch b) {
        if (b.done.get()) {
            return;
        }
        boolean leaderNamed = b.hint != null && b.attempts == 1;
        long millis = leaderNamed ? 0 : Math.min(MAX_RETRY_MILLIS, FIRST_RETRY_MILLIS << Math.min(b.attempts, 10));
        try {
            if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis) > b.retryDeadline) {
                completions.execute(() -> finish(b, b.lastFailure));
            } else {
                timers.schedule(() -> attempt(b), millis, TimeUnit.MILLISECONDS);
            }
        } catch (RuntimeException rejected) {
            // The node is stopping and its executors are shut down.
            finish(b, new NodeUnavailableException("the node is stopping"));
        }
    }

    /**
     * Fails a batch once: with {@code failure}, or (null) at its deadline, when it reached a
     * leader but was not committed in time. Its place in flight is given back now unless Ratis
     * still holds an attempt of it: a batch given up on may yet be appended and applied, and
     * counting it until Ratis answers is what bounds the writes a node has inside Raft, however
     * slow Raft gets.
     */
    private void finish(Batch b, Throwable failure) {
        if (!b.done.compareAndSet(false, true)) {
            return;
        }
        cancelDeadline(b);
        if (!b.attemptInFlight) {
            releaseOnce(b);
        }
        Throwable why = failure;
        if (why == null) {
            why = new TimeoutException("the write did not finish within " + limits.timeout().toMillis()
                    + " ms (strata.server.request-timeout); it may or may not have been applied");
            if (b.lastFailure != null) {
                why.initCause(b.lastFailure);
            }
            LOG.debug("batch {} of {} writes gave up after {} attempts: {}", b.callId, b.pending.size(), b.attempts, why.toString());
        }
        for (Pending p : b.pending) {
            p.future().completeExceptionally(why);
        }
    }

    private static void cancelDeadline(Batch b) {
        ScheduledFuture<?> task = b.deadlineTask;
        if (task != null) {
            task.cancel(false);
        }
    }

    /** {@link #releaseOnce} on the completions executor: the caller may be a Ratis thread. */
    private void releaseLater(Batch b) {
        try {
            completions.execute(() -> releaseOnce(b));
        } catch (RuntimeException rejected) {
            // The node is stopping: no further batch will start.
        }
    }

    private void releaseOnce(Batch b) {
        if (b.released.compareAndSet(false, true)) {
            release();
        }
    }

    /** Frees an ended batch's place and starts the batches the waiting writes may form now. */
    private void release() {
        List<List<Pending>> next = new ArrayList<>(1);
        synchronized (this) {
            inFlight--;
            while (!closed && mayStartBatch()) {
                List<Pending> batch = takeBatch();
                if (batch == null) {
                    break;
                }
                next.add(batch);
            }
        }
        for (List<Pending> batch : next) {
            start(new Batch(batch));
        }
    }

    /** Completes each write of the batch with its own outcome. */
    private static void deliver(Batch b, Message reply) {
        List<Pending> pending = b.pending;
        try {
            if (reply instanceof OutcomesMessage local) {
                List<CommandApplier.Outcome> outcomes = local.outcomes();
                checkCount(outcomes.size(), pending.size());
                for (int i = 0; i < pending.size(); i++) {
                    switch (outcomes.get(i)) {
                        case CommandApplier.Applied a -> pending.get(i).future().complete(WriteReply.of(a.response()));
                        case CommandApplier.Refused r -> pending.get(i).future().completeExceptionally(r.cause());
                    }
                }
                return;
            }
            ProposalResults results = ProposalResults.parseFrom(reply.getContent().asReadOnlyByteBuffer());
            checkCount(results.getResultsCount(), pending.size());
            for (int i = 0; i < pending.size(); i++) {
                ProposalResult r = results.getResults(i);
                CompletableFuture<WriteReply> f = pending.get(i).future();
                switch (r.getOutcomeCase()) {
                    case RESPONSE -> f.complete(WriteReply.encoded(r.getResponse()));
                    case INVALID -> f.completeExceptionally(new InvalidRequestException(r.getInvalid()));
                    case OUTCOME_NOT_SET -> f.completeExceptionally(new IllegalStateException("the leader's reply has no outcome"));
                }
            }
        } catch (InvalidProtocolBufferException | IllegalStateException e) {
            IllegalStateException failure = new IllegalStateException("the leader's reply to a batch of writes is unreadable: "
                    + e.getMessage(), e);
            for (Pending p : pending) {
                p.future().completeExceptionally(failure);
            }
        }
    }

    private static void checkCount(int outcomes, int writes) {
        if (outcomes != writes) {
            throw new IllegalStateException(outcomes + " outcomes for " + writes + " writes");
        }
    }

    private static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** Fails the writes that wait for a batch; batches in flight end with their replies or deadlines. */
    @Override
    public void close() {
        List<Pending> dropped;
        synchronized (this) {
            closed = true;
            dropped = new ArrayList<>(queue);
            queue.clear();
            queuedBytes = 0;
        }
        NodeUnavailableException stopping = new NodeUnavailableException("the node is stopping");
        for (Pending p : dropped) {
            p.future().completeExceptionally(stopping);
        }
    }
}
