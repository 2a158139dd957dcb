package dev.strata.engine.util;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference count that starts at one (the owner's reference) and runs an action when the
 * last reference is released. Once at zero it can never be acquired again, which is what lets a
 * reader race with eviction safely: {@link #tryAcquire()} fails and the caller opens a new one.
 * Thread-safe.
 */
public final class RefCount {
    private final AtomicInteger refs = new AtomicInteger(1);
    private final Runnable onZero;

    public RefCount(Runnable onZero) {
        this.onZero = onZero;
    }

    /** Takes a reference unless the count already reached zero. */
    public boolean tryAcquire() {
        while (true) {
            int r = refs.get();
            if (r <= 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** Drops a reference; the last one runs the action. */
    public void release() {
        int r = refs.decrementAndGet();
        if (r == 0) {
            onZero.run();
        } else if (r < 0) {
            throw new IllegalStateException("released more often than acquired");
        }
    }
}
