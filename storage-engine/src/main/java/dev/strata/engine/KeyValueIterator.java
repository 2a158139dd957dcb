package dev.strata.engine;

import java.util.Iterator;

/**
 * A forward iterator over a key range in unsigned-byte key order. It reads a consistent view
 * (the engine's state when it was created) and pins the files of that view until it is
 * closed, so always close it (try-with-resources). Not thread-safe.
 */
public interface KeyValueIterator extends Iterator<KeyValue>, AutoCloseable {
    /** Releases the files this iterator pins. Idempotent; does not throw. */
    @Override
    void close();
}
