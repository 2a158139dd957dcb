package dev.strata.engine.memtable;

import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.Lookup;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.util.Coding;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory sorted buffer of recent writes: a concurrent skip list of encoded internal
 * keys to values. One writer thread at a time adds (the engine's write leader); any number of
 * readers and iterators may run alongside. Once frozen (immutable) it is only read, then
 * flushed to an L0 table.
 */
public final class MemTable implements WriteSink {
    /** Approximate per-entry overhead of the skip list node, key and value arrays. */
    private static final int ENTRY_OVERHEAD = 64;
    private static final byte[] EMPTY = new byte[0];

    private final ConcurrentSkipListMap<byte[], byte[]> entries;
    private final AtomicLong approximateBytes;
    private final long walNumber;
    private volatile byte[] appliedMarker;
    private volatile long largestSequence;

    /**
     * @param walNumber the number of the log file holding this memtable's writes (0 without a log)
     */
    public MemTable(long walNumber) {
        this.walNumber = walNumber;
        this.entries = new ConcurrentSkipListMap<>(InternalKey.COMPARATOR);
        this.approximateBytes = new AtomicLong();
    }

    /** A memtable holding {@code sorted}, built without comparing keys (see {@link MemTableLoader}). */
    MemTable(long walNumber, SortedMap<byte[], byte[]> sorted, long approximateBytes, long largestSequence,
            byte[] appliedMarker) {
        this.walNumber = walNumber;
        this.entries = new ConcurrentSkipListMap<>(sorted);
        this.approximateBytes = new AtomicLong(approximateBytes);
        this.largestSequence = largestSequence;
        this.appliedMarker = appliedMarker;
    }

    static byte[] internalKey(long sequence, ValueType type, byte[] userKey) {
        byte[] key = Arrays.copyOf(userKey, userKey.length + InternalKey.TRAILER_SIZE);
        Coding.putLong(key, userKey.length, InternalKey.packTrailer(sequence, type.code()));
        return key;
    }

    static byte[] storedValue(ValueType type, byte[] value) {
        return type == ValueType.VALUE ? value : EMPTY;
    }

    static long entrySize(byte[] key, byte[] value) {
        return key.length + value.length + ENTRY_OVERHEAD;
    }

    public long walNumber() {
        return walNumber;
    }

    @Override
    public void add(long sequence, ValueType type, byte[] userKey, byte[] value) {
        byte[] key = internalKey(sequence, type, userKey);
        byte[] v = storedValue(type, value);
        entries.put(key, v);
        approximateBytes.addAndGet(entrySize(key, v));
        largestSequence = sequence;
    }

    @Override
    public void noteSequence(long sequence) {
        if (sequence > largestSequence) {
            largestSequence = sequence;
        }
    }

    @Override
    public void setAppliedMarker(byte[] marker) {
        this.appliedMarker = marker;
    }

    /** The marker of the newest batch applied to this memtable, or null. */
    public byte[] appliedMarker() {
        return appliedMarker;
    }

    /** The newest version of {@code userKey} with a sequence at or below {@code sequence}. */
    public Lookup get(byte[] userKey, long sequence) {
        Map.Entry<byte[], byte[]> e = entries.ceilingEntry(InternalKey.encodeLookupKey(userKey, sequence));
        if (e == null || InternalKey.compareUserKey(e.getKey(), userKey) != 0) {
            return Lookup.NOT_FOUND;
        }
        return Lookup.ofEntry(e.getKey(), e.getValue());
    }

    public long approximateBytes() {
        return approximateBytes.get();
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public int size() {
        return entries.size();
    }

    /** The largest sequence number added or noted, or 0. */
    public long largestSequence() {
        return largestSequence;
    }

    /** An iterator over the entries; weakly consistent with concurrent adds. */
    public InternalIterator iterator() {
        return new MemTableIterator();
    }

    private final class MemTableIterator implements InternalIterator {
        private Iterator<Map.Entry<byte[], byte[]>> it;
        private Map.Entry<byte[], byte[]> current;

        @Override
        public boolean valid() {
            return current != null;
        }

        @Override
        public void seekToFirst() {
            it = entries.entrySet().iterator();
            advance();
        }

        @Override
        public void seek(byte[] target) {
            it = entries.tailMap(target, true).entrySet().iterator();
            advance();
        }

        @Override
        public void next() {
            if (current == null) {
                throw new IllegalStateException("not valid");
            }
            advance();
        }

        private void advance() {
            current = it.hasNext() ? it.next() : null;
        }

        @Override
        public byte[] key() {
            return current.getKey();
        }

        @Override
        public byte[] value() {
            return current.getValue();
        }

        @Override
        public void close() {
            current = null;
        }
    }
}
