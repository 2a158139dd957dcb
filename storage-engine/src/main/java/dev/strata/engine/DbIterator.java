package dev.strata.engine;

import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;

import java.lang.ref.Cleaner;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;

/**
 * The user-facing scan: walks a merged internal iterator, shows for each user key only its
 * newest version visible at the read sequence, hides deleted keys and stops at the upper
 * bound. It pins the version it reads; {@link #close()} (or, as a safety net, the garbage
 * collector) releases it. Not thread-safe.
 */
final class DbIterator implements KeyValueIterator {
    private static final Cleaner CLEANER = Cleaner.create();

    private final InternalIterator merged;
    private final long sequence;
    private final byte[] toExclusive;
    private final BiFunction<byte[], byte[], byte[]> resolvePointer;
    private final Release release;
    private final Cleaner.Cleanable cleanable;
    private byte[] lastUserKeySeen; // an encoded internal key whose user key was already decided
    private KeyValue next;
    private boolean done;

    /** Closes the merged iterator and drops the pins; shared with the cleaner, so it holds no reference to the iterator. */
    private static final class Release implements Runnable {
        private final InternalIterator merged;
        private final Runnable unpin;
        private boolean ran;

        Release(InternalIterator merged, Runnable unpin) {
            this.merged = merged;
            this.unpin = unpin;
        }

        @Override
        public synchronized void run() {
            if (!ran) {
                ran = true;
                try {
                    merged.close();
                } finally {
                    unpin.run();
                }
            }
        }
    }

    /**
     * @param merged         every layer of the view, merged; positioned by this constructor
     * @param resolvePointer (user key, encoded pointer) to the value in the value log
     * @param unpin          releases what the view pins (its version, and so its value logs), once
     */
    DbIterator(InternalIterator merged, long sequence, byte[] fromInclusive, byte[] toExclusive,
               BiFunction<byte[], byte[], byte[]> resolvePointer, Runnable unpin) {
        this.merged = merged;
        this.sequence = sequence;
        this.toExclusive = toExclusive;
        this.resolvePointer = resolvePointer;
        this.release = new Release(merged, unpin);
        this.cleanable = CLEANER.register(this, release);
        try {
            if (fromInclusive == null) {
                merged.seekToFirst();
            } else {
                merged.seek(InternalKey.encodeLookupKey(fromInclusive, sequence));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void advance() {
        while (merged.valid()) {
            byte[] key = merged.key();
            if (InternalKey.sequenceOf(key) > sequence
                    || (lastUserKeySeen != null && InternalKey.compareUserKeys(key, lastUserKeySeen) == 0)) {
                merged.next();
                continue;
            }
            if (toExclusive != null && InternalKey.compareUserKey(key, toExclusive) >= 0) {
                break;
            }
            lastUserKeySeen = key;
            int type = InternalKey.typeCodeOf(key);
            if (type == ValueType.VALUE.code()) {
                next = new KeyValue(InternalKey.userKeyOf(key), merged.value().clone());
                merged.next();
                return;
            }
            if (type == ValueType.VALUE_POINTER.code()) {
                byte[] userKey = InternalKey.userKeyOf(key);
                next = new KeyValue(userKey, resolvePointer.apply(userKey, merged.value()));
                merged.next();
                return;
            }
            merged.next();
        }
        done = true;
        close();
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            advance();
        }
        return next != null;
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue kv = next;
        next = null;
        return kv;
    }

    @Override
    public void close() {
        done = true;
        cleanable.clean();
    }
}
