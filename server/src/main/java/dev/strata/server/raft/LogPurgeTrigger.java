package dev.strata.server.raft;

import java.util.function.LongSupplier;

/**
 * Asks Ratis to purge its log as soon as the engine's own flushes have made a segment of it
 * redundant, without waiting for the next checkpoint.
 *
 * <p>Every entry up to the engine's durable marker is in its files, so a restart never needs
 * those entries; yet Ratis reads and checks every segment it keeps before a node can serve, and
 * purging only at checkpoints (every 256 MiB of log by default) let a restart read up to that much
 * log for nothing. The engine flushes every write buffer's worth of writes anyway, so after each
 * flush the state machine reports its durable index to Ratis, which drops the closed segments
 * wholly below it. Ratis drops only whole segments, so asking more than once per segment's worth
 * of log would achieve nothing. A follower that falls further behind than the log catches up from
 * a checkpoint, as it did after a checkpoint's purge; the checkpoints themselves keep their own
 * schedule.
 *
 * <p>Not thread-safe: the apply thread's.
 */
final class LogPurgeTrigger {
    /** After the threshold, how much more log goes by between two looks at an unmoved durable index. */
    private static final int RECHECK_FRACTION = 8;

    private final long everyBytes;
    private final LongSupplier durableIndex;
    private final Runnable askForPurge;
    private long bytesSince;
    private long nextCheckAt;
    private long askedUpTo;

    /**
     * @param everyBytes   log bytes applied between two requests at least (the log's segment size)
     * @param durableIndex the index the engine's files hold, 0 when none
     * @param askForPurge  asks Ratis for a snapshot, whose index is the durable one, on another
     *                     thread: Ratis serves the request on the apply thread
     */
    LogPurgeTrigger(long everyBytes, LongSupplier durableIndex, Runnable askForPurge) {
        if (everyBytes <= 0) {
            throw new IllegalArgumentException("everyBytes must be positive, was " + everyBytes);
        }
        this.everyBytes = everyBytes;
        this.durableIndex = durableIndex;
        this.askForPurge = askForPurge;
        this.nextCheckAt = everyBytes;
    }

    /** Counts an applied entry of {@code bytes}; asks for a purge when a segment's worth went by and a flush moved the durable index. */
    void applied(long bytes) {
        bytesSince += bytes;
        if (bytesSince < nextCheckAt) {
            return;
        }
        long durable = durableIndex.getAsLong();
        if (durable <= askedUpTo) {
            nextCheckAt = bytesSince + Math.max(1, everyBytes / RECHECK_FRACTION); // no flush yet: look again a little later
            return;
        }
        askedUpTo = durable;
        bytesSince = 0;
        nextCheckAt = everyBytes;
        askForPurge.run();
    }
}
