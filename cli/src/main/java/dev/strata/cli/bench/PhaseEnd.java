package dev.strata.cli.bench;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When a phase of the run ends: after a duration, or after a number of operations (those that
 * failed included), or at once when halted because a worker died. Thread-safe.
 */
final class PhaseEnd {
    private final long deadlineNanos;
    private final AtomicLong remaining;
    private volatile boolean halted;

    private PhaseEnd(long deadlineNanos, AtomicLong remaining) {
        this.deadlineNanos = deadlineNanos;
        this.remaining = remaining;
    }

    /** Ends {@code length} from now. */
    static PhaseEnd after(Duration length) {
        return new PhaseEnd(System.nanoTime() + length.toNanos(), null);
    }

    /** Ends once {@code ops} operations have been started. */
    static PhaseEnd afterOps(long ops) {
        return new PhaseEnd(0, new AtomicLong(ops));
    }

    /** Claims the next operation: false once the phase is over. */
    boolean next() {
        if (halted) {
            return false;
        }
        return remaining != null ? remaining.getAndDecrement() > 0 : System.nanoTime() - deadlineNanos < 0;
    }

    /**
     * Whether an operation due at {@code dueNanos} (open loop) still belongs to the phase: one due
     * after a duration-bound phase's end does not; a count-bound phase ends by its count alone.
     */
    boolean admits(long dueNanos) {
        return !halted && (remaining != null || dueNanos - deadlineNanos < 0);
    }

    void halt() {
        halted = true;
    }
}
