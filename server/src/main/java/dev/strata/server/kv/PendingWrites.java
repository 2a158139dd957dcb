package dev.strata.server.kv;

import dev.strata.engine.WriteBatch;

import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * Writes being applied, over the state before them: reads through this view see the earlier
 * operations (as a read inside an etcd Txn sees the Txn's own puts). A log entry's writes
 * collect in one; each command of the entry gets its own layer over it, {@linkplain #absorb
 * absorbed} when the command succeeds and dropped when it is refused. At the end the entry's
 * writes become one engine {@link WriteBatch}. Not thread-safe.
 */
final class PendingWrites implements KvView {
    private final KvView base;
    /** User key -> new stored value, or null for a delete. Unsigned byte order, like the engine. */
    private final NavigableMap<byte[], StoredValue> writes = new TreeMap<>(Arrays::compareUnsigned);
    /** Engine key of a metadata record ({@link KeySpace#meta}) -> new value, or null for a delete. */
    private final NavigableMap<byte[], byte[]> meta = new TreeMap<>(Arrays::compareUnsigned);

    PendingWrites(KvView base) {
        this.base = base;
    }

    void put(byte[] key, StoredValue value) {
        writes.put(key, value);
    }

    void delete(byte[] key) {
        writes.put(key, null);
    }

    /** Sets a metadata record (not visible to user reads); null deletes it. */
    void putMeta(byte[] engineKey, byte[] value) {
        meta.put(engineKey, value);
    }

    /** Takes over the writes of {@code layer}, a view over this one whose command succeeded. */
    void absorb(PendingWrites layer) {
        if (layer.base != this) {
            throw new IllegalArgumentException("not a layer over this view");
        }
        writes.putAll(layer.writes);
        meta.putAll(layer.meta);
    }

    /** The writes as one engine batch: user keys in the data namespace, then metadata records. */
    WriteBatch toBatch() {
        WriteBatch batch = new WriteBatch();
        for (Map.Entry<byte[], StoredValue> w : writes.entrySet()) {
            if (w.getValue() == null) {
                batch.delete(KeySpace.data(w.getKey()));
            } else {
                batch.put(KeySpace.data(w.getKey()), w.getValue().encode());
            }
        }
        for (Map.Entry<byte[], byte[]> m : meta.entrySet()) {
            if (m.getValue() == null) {
                batch.delete(m.getKey());
            } else {
                batch.put(m.getKey(), m.getValue());
            }
        }
        return batch;
    }

    /** The user-key writes so far (null values are deletes), in key order; a read-only view. */
    Map<byte[], StoredValue> userWrites() {
        return Collections.unmodifiableMap(writes);
    }

    @Override
    public StoredValue get(byte[] userKey) {
        if (writes.containsKey(userKey)) {
            return writes.get(userKey);
        }
        return base.get(userKey);
    }

    @Override
    public RevisionCache.Revisions revisions(byte[] userKey) {
        if (writes.containsKey(userKey)) {
            StoredValue v = writes.get(userKey);
            return v == null ? null : v.revisions();
        }
        return base.revisions(userKey);
    }

    /** Merges the base's entries with the pending writes in the range; a pending write shadows the base. */
    @Override
    public Cursor scan(byte[] from, byte[] to) {
        Cursor below = base.scan(from, to);
        NavigableMap<byte[], StoredValue> mine = to == null ? writes.tailMap(from, true) : writes.subMap(from, true, to, false);
        Iterator<Map.Entry<byte[], StoredValue>> over = mine.entrySet().iterator();
        return new Cursor() {
            private Entry nextBase = advance(below);
            private Map.Entry<byte[], StoredValue> nextOver = over.hasNext() ? over.next() : null;
            private Entry next = compute();

            private static Entry advance(Cursor c) {
                return c.hasNext() ? c.next() : null;
            }

            private Entry compute() {
                while (nextBase != null || nextOver != null) {
                    int c = nextBase == null ? 1 : nextOver == null ? -1 : Arrays.compareUnsigned(nextBase.key(), nextOver.getKey());
                    if (c < 0) {
                        Entry e = nextBase;
                        nextBase = advance(below);
                        return e;
                    }
                    Map.Entry<byte[], StoredValue> w = nextOver;
                    nextOver = over.hasNext() ? over.next() : null;
                    if (c == 0) {
                        nextBase = advance(below);
                    }
                    if (w.getValue() != null) {
                        return new Entry(w.getKey(), w.getValue());
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Entry next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Entry e = next;
                next = compute();
                return e;
            }

            @Override
            public void close() {
                below.close();
            }
        };
    }
}
