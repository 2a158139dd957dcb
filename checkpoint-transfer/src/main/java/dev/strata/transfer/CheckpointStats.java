package dev.strata.transfer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of checkpoint traffic on one node, both as sender and as receiver; exported as
 * {@code strata_checkpoint_*} meters. Thread-safe.
 */
public final class CheckpointStats {
    /** Transfers this node served (a plan and its stream), by plan kind. */
    public final AtomicLong deltaPlansServed = new AtomicLong();
    public final AtomicLong fullPlansServed = new AtomicLong();
    /** File bytes this node streamed, before and after chunk compression. */
    public final AtomicLong sentRawBytes = new AtomicLong();
    public final AtomicLong sentWireBytes = new AtomicLong();

    /** Installs this node completed from another's checkpoint, by plan kind, and those that failed. */
    public final AtomicLong deltaInstalls = new AtomicLong();
    public final AtomicLong fullInstalls = new AtomicLong();
    public final AtomicLong failedInstalls = new AtomicLong();
    /** Files received, and files a plan listed that this node already held (not sent). */
    public final AtomicLong filesReceived = new AtomicLong();
    public final AtomicLong filesReused = new AtomicLong();
    /** File bytes received, before and after chunk compression, and chunks rejected by their CRC. */
    public final AtomicLong receivedRawBytes = new AtomicLong();
    public final AtomicLong receivedWireBytes = new AtomicLong();
    public final AtomicLong corruptChunks = new AtomicLong();
    /** The latest fetch: bytes its plan sends, and bytes received so far (equal once it is done). */
    public final AtomicLong fetchPlannedBytes = new AtomicLong();
    public final AtomicLong fetchReceivedBytes = new AtomicLong();
}
