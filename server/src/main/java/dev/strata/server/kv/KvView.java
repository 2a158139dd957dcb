package dev.strata.server.kv;

import java.util.Iterator;

/**
 * A read view of the user keys with their revisions: an engine snapshot for reads, or the
 * state a write sees while it is applied (the engine plus the writes of the same entry so far).
 */
public interface KvView {
    /** The stored value of {@code userKey}, or null when absent. */
    StoredValue get(byte[] userKey);

    /** The revisions of {@code userKey} without its value, or null when absent. */
    default RevisionCache.Revisions revisions(byte[] userKey) {
        StoredValue v = get(userKey);
        return v == null ? null : v.revisions();
    }

    /** The entries in {@code [from, to)} (null {@code to} = no end) in key order. Close the cursor. */
    Cursor scan(byte[] from, byte[] to);

    /** One user key and what is stored for it. */
    record Entry(byte[] key, StoredValue value) {}

    /** A forward iterator over entries that must be closed. Not thread-safe. */
    interface Cursor extends Iterator<Entry>, AutoCloseable {
        @Override
        void close();
    }
}
