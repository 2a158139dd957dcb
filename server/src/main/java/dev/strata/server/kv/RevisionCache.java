package dev.strata.server.kv;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The revisions of recently written keys, exactly as one open engine holds them, so that a put
 * learns its key's create revision and version without reading the key's previous version from
 * the engine (a memtable search, or for a large value a value-log read and a decompression).
 * etcd keeps every key's revisions in memory; this keeps the most recently used
 * {@link #DEFAULT_CAPACITY} and reads the engine for the rest.
 *
 * <p>It stays exact because the apply thread is the engine's only writer of user keys: it
 * {@linkplain #record records} an entry's writes only after the engine took them, and a cache
 * belongs to one open engine (a reopened or replaced engine gets a new, empty one). Thread-safe;
 * in practice only the apply thread uses it.
 */
public final class RevisionCache {
    /** About 10 MiB for keys of a few tens of bytes. */
    public static final int DEFAULT_CAPACITY = 65_536;

    private final Map<Key, Revisions> recent;

    /** A key's revisions (see {@link StoredValue}). */
    public record Revisions(long createRevision, long modRevision, long version) {}

    public RevisionCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.recent = new LinkedHashMap<>(Math.min(capacity, 1 << 12), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Revisions> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The revisions of {@code userKey} if the cache knows them; null means "read the engine". */
    synchronized Revisions get(byte[] userKey) {
        return recent.get(new Key(userKey));
    }

    /** Remembers what the engine holds for {@code userKey}, read from it or just written to it. */
    synchronized void put(byte[] userKey, Revisions revisions) {
        recent.put(new Key(userKey), revisions);
    }

    /**
     * Takes in the writes of one log entry, called once the engine holds them: a put's new
     * revisions, a delete's absence (forgotten, so the next put reads the engine's answer).
     */
    public synchronized void record(Map<byte[], StoredValue> writes) {
        for (Map.Entry<byte[], StoredValue> w : writes.entrySet()) {
            StoredValue v = w.getValue();
            if (v == null) {
                recent.remove(new Key(w.getKey()));
            } else {
                recent.put(new Key(w.getKey()), v.revisions());
            }
        }
    }

    /** Forgets everything: for when the engine took writes the cache may not have seen. */
    public synchronized void clear() {
        recent.clear();
    }

    synchronized int size() {
        return recent.size();
    }

    /** A user key compared by content. The cache never changes the array it holds. */
    private record Key(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
