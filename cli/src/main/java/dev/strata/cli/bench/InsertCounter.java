package dev.strata.cli.bench;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The numbers of new keys, handed out in order after the loaded ones, and how far they are
 * written: {@link #written()} is the count of keys below which every insert has finished, as
 * YCSB's acknowledged counter keeps it, so the latest distribution never reads a key whose insert
 * is still in flight. An insert that failed counts as finished (its key may or may not exist,
 * and a read of it may miss); otherwise one failure would freeze the count for the rest of the
 * run. Thread-safe.
 */
final class InsertCounter {
    private final AtomicLong next;
    private final Set<Long> finishedAhead = new HashSet<>();
    private volatile long written;

    /** @param loaded the keys that exist before the run: {@code [0, loaded)} */
    InsertCounter(long loaded) {
        this.next = new AtomicLong(loaded);
        this.written = loaded;
    }

    /** The number of the next key to insert. */
    long next() {
        return next.getAndIncrement();
    }

    /** Records that the insert of key {@code n}, from {@link #next()}, has finished, well or not. */
    synchronized void finished(long n) {
        if (n != written) {
            finishedAhead.add(n);
            return;
        }
        long w = n + 1;
        while (finishedAhead.remove(w)) {
            w++;
        }
        written = w;
    }

    /** Every key below this number exists (or its insert failed). */
    long written() {
        return written;
    }
}
