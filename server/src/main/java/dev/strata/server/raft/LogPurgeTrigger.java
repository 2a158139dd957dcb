package dev.strata.server.raft;

import java.util.function.LongSupplier;

/**
 * Asks Ratis to purge its log as soon as the engine's own flushes have made a segment of it
 * redundant, without waiting for the next checkpoint.
 *
 * <p>Every entry up to the engine's durable marker is in its files, so a restart never needs
 * those entries; yet Ratis reads and checks every segment it keeps before a node can serve, and
 * purging only at checkpoints (every 256 MiB of log by default) let a restart read up to that much
 * log for nothing. So after each flush that moves the durable marker the state machine reports
 * it to Ratis, which drops the closed segments wholly below it. The marker is looked at every
 * eighth of a segment's worth of applied log: soon enough that a segment goes shortly after the
 * flush that covers it, and at most one request per flush. A follower that falls further behind
 * than the log catches up from a checkpoint, as it did after a checkpoint's purge; the
 * checkpoints themselves keep their own schedule.
 *
 * <p>Not thread-safe: the apply thread's.
 */
final class LogPurgeTrigger {
    /** The durable marker is looked at every this fraction of a segment's worth of log. */
    private static final int LOOKS_PER_SEGMENT = 8;

    private final long lookEveryBytes;
    private final LongSupplier durableIndex;
    private final Runnable askForPurge;
    private long bytesSince;
    private long askedUpTo;

    /**
     * @param segmentBytes the log's segment size
     * @param durableIndex the index the engine's files hold, 0 when none
     * @param askForPurge  asks Ratis for a snapshot, whose index is the durable one, on another
     *                     thread: Ratis serves the request on the apply thread
     */
    LogPurgeTrigger(long segmentBytes, LongSupplier durableIndex, Runnable askForPurge) {
        if (segmentBytes <= 0) {
            throw new IllegalArgumentException("segmentBytes must be positive, was " + segmentBytes);
        }
        this.lookEveryBytes = Math.max(1, segmentBytes / LOOKS_PER_SEGMENT);
        this.durableIndex = durableIndex;
        this.askForPurge = askForPurge;
    }

    /** Counts an applied entry of {@code bytes}; asks for a purge when a look finds that a flush moved the durable index. */
    void applied(long bytes) {
        bytesSince += bytes;
        if (bytesSince < lookEveryBytes) {
            return;
        }
        bytesSince = 0;
        long durable = durableIndex.getAsLong();
        if (durable > askedUpTo) {
            askedUpTo = durable;
            askForPurge.run();
        }
    }
}
