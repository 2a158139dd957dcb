package dev.strata.server.kv;

import dev.strata.engine.WriteBatch;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * The writes of one log entry while it is applied, over the state before it: reads through
 * this view see the entry's earlier operations (as a read inside an etcd Txn sees the Txn's
 * own puts). At the end the writes become one engine {@link WriteBatch}. Not thread-safe.
 */
final class PendingWrites implements KvView {
    private final KvView base;
    /** User key -> new stored value, or null for a delete. Unsigned byte order, like the engine. */
    private final NavigableMap<byte[], StoredValue> writes = new TreeMap<>(Arrays::compareUnsigned);

    PendingWrites(KvView base) {
        this.base = base;
    }

    void put(byte[] key, StoredValue value) {
        writes.put(key, value);
    }

    void delete(byte[] key) {
        writes.put(key, null);
    }

    /** The writes as an engine batch in the data namespace. */
    WriteBatch toBatch() {
        WriteBatch batch = new WriteBatch();
        for (Map.Entry<byte[], StoredValue> w : writes.entrySet()) {
            if (w.getValue() == null) {
                batch.delete(KeySpace.data(w.getKey()));
            } else {
                batch.put(KeySpace.data(w.getKey()), w.getValue().encode());
            }
        }
        return batch;
    }

    @Override
    public StoredValue get(byte[] userKey) {
        if (writes.containsKey(userKey)) {
            return writes.get(userKey);
        }
        return base.get(userKey);
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
