package dev.strata.server.raft;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Shares ReadIndex rounds among concurrent linearizable reads, as etcd's read loop does. A
 * round proves that this node has applied everything committed when the round started; a read
 * may use a round only if the round started after the read arrived, so each read waits for the
 * next round to start and end. One round runs at a time: the reads that arrive meanwhile wait
 * together for the one after it, however many they are. A round's end may be reported on a
 * Raft thread that holds Ratis's locks, so the next round starts, and the round's readers are
 * released, on {@code executor}, never there. Thread-safe.
 */
final class ReadBarrier {
    private final Supplier<CompletableFuture<Void>> round;
    private final Executor executor;
    /** The reads waiting for the next round, or null when none waits. Guarded by {@code this}. */
    private CompletableFuture<Void> waiting;
    /** Whether a round is running. Guarded by {@code this}. */
    private boolean running;

    /**
     * @param round    starts one ReadIndex round and completes when this node has applied up to its index
     * @param executor starts the rounds that follow a round
     */
    ReadBarrier(Supplier<CompletableFuture<Void>> round, Executor executor) {
        this.round = round;
        this.executor = executor;
    }

    /** Completes once a round that started after this call has ended; fails with that round. */
    CompletableFuture<Void> await() {
        CompletableFuture<Void> mine;
        boolean start;
        synchronized (this) {
            if (waiting == null) {
                waiting = new CompletableFuture<>();
            }
            mine = waiting;
            start = !running;
            if (start) {
                running = true;
                waiting = null;
            }
        }
        if (start) {
            run(mine);
        }
        return mine;
    }

    /** Runs a round for {@code readers}, then the next one for whoever arrived meanwhile. */
    private void run(CompletableFuture<Void> readers) {
        CompletableFuture<Void> r;
        try {
            r = round.get();
        } catch (RuntimeException e) {
            r = CompletableFuture.failedFuture(e);
        }
        r.whenComplete((v, error) -> {
            CompletableFuture<Void> next;
            synchronized (this) {
                next = waiting;
                waiting = null;
                running = next != null;
            }
            try {
                executor.execute(() -> {
                    if (next != null) {
                        run(next);
                    }
                    // The round's readers then read on this thread too: one thread switch per
                    // round, not one per read.
                    if (error != null) {
                        readers.completeExceptionally(error);
                    } else {
                        readers.complete(null);
                    }
                });
            } catch (RuntimeException rejected) {
                NodeUnavailableException stopping = new NodeUnavailableException("the node is stopping");
                readers.completeExceptionally(stopping);
                if (next != null) {
                    next.completeExceptionally(stopping);
                }
            }
        });
    }
}
