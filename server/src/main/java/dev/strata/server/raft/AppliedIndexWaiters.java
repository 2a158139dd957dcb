package dev.strata.server.raft;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Futures that complete once the state machine has applied a given index, for stale reads that
 * must not see a state older than the index they ask for. (BaseStateMachine's own bookkeeping
 * for this misses wake-ups when the applied index moves, so it is not used.) Thread-safe.
 */
final class AppliedIndexWaiters {
    private final ConcurrentSkipListMap<Long, CompletableFuture<Void>> waiting = new ConcurrentSkipListMap<>();
    private volatile long applied = -1;

    /** A future done once {@code index} is applied (at once if it already is). */
    CompletableFuture<Void> await(long index) {
        if (index <= applied) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> f = waiting.computeIfAbsent(index, i -> new CompletableFuture<>());
        // advance() may have run between the check and the insert: check again so no waiter is stranded.
        if (index <= applied) {
            complete(applied);
        }
        return f;
    }

    /** Records that everything up to {@code index} is applied and wakes its waiters. */
    void advance(long index) {
        applied = index;
        complete(index);
    }

    private void complete(long upTo) {
        for (Map.Entry<Long, CompletableFuture<Void>> e; (e = waiting.firstEntry()) != null && e.getKey() <= upTo; ) {
            if (waiting.remove(e.getKey(), e.getValue())) {
                e.getValue().complete(null);
            }
        }
    }

    /** Fails every waiter, for a closing or failed state machine. */
    void failAll(Throwable cause) {
        for (Map.Entry<Long, CompletableFuture<Void>> e; (e = waiting.pollFirstEntry()) != null; ) {
            e.getValue().completeExceptionally(cause);
        }
    }
}
