package dev.strata.engine.memtable;

import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * Builds a memtable from many writes at once, as a replay of the write-ahead logs does: the
 * writes are collected unsorted, sorted once, and the skip list is built from the sorted run in
 * linear time. Inserting them one by one costs a skip-list search each (about twice the
 * comparisons of one sort, each on a cold node); with a full write buffer that search was most
 * of an engine's open.
 *
 * <p>Writes that end up with the same internal key (the same user key at the same sequence)
 * keep the last one added, as {@link MemTable#add} does.
 */
public final class MemTableLoader implements WriteSink {
    private final List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>();
    private long approximateBytes;
    private long largestSequence;
    private byte[] appliedMarker;

    @Override
    public void add(long sequence, ValueType type, byte[] userKey, byte[] value) {
        byte[] key = MemTable.internalKey(sequence, type, userKey);
        byte[] v = MemTable.storedValue(type, value);
        entries.add(new AbstractMap.SimpleImmutableEntry<>(key, v));
        approximateBytes += MemTable.entrySize(key, v);
        largestSequence = sequence;
    }

    @Override
    public void noteSequence(long sequence) {
        largestSequence = Math.max(largestSequence, sequence);
    }

    @Override
    public void setAppliedMarker(byte[] marker) {
        appliedMarker = marker;
    }

    /** The number of writes added so far. */
    public int added() {
        return entries.size();
    }

    /**
     * The memtable holding every write added, numbered by the log that holds its writes. The
     * loader must not be used afterwards.
     */
    public MemTable build(long walNumber) {
        Comparator<Map.Entry<byte[], byte[]>> byKey = Map.Entry.comparingByKey(InternalKey.COMPARATOR);
        entries.sort(byKey); // stable: among equal keys the last added stays last
        List<Map.Entry<byte[], byte[]>> distinct = new ArrayList<>(entries.size());
        long bytes = approximateBytes;
        for (int i = 0; i < entries.size(); i++) {
            Map.Entry<byte[], byte[]> e = entries.get(i);
            if (i + 1 < entries.size() && byKey.compare(e, entries.get(i + 1)) == 0) {
                bytes -= MemTable.entrySize(e.getKey(), e.getValue()); // replaced by a later write
                continue;
            }
            distinct.add(e);
        }
        entries.clear();
        return new MemTable(walNumber, new SortedRun(distinct), bytes, largestSequence, appliedMarker);
    }

    /**
     * A sorted list seen as a {@link SortedMap}, the form from which a skip list builds itself
     * without comparing keys. Only what that construction reads is supported.
     */
    private static final class SortedRun extends AbstractMap<byte[], byte[]> implements SortedMap<byte[], byte[]> {
        private final List<Map.Entry<byte[], byte[]>> sorted;

        SortedRun(List<Map.Entry<byte[], byte[]>> sorted) {
            this.sorted = sorted;
        }

        @Override
        public Comparator<? super byte[]> comparator() {
            return InternalKey.COMPARATOR;
        }

        @Override
        public Set<Map.Entry<byte[], byte[]>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<byte[], byte[]>> iterator() {
                    return sorted.iterator();
                }

                @Override
                public int size() {
                    return sorted.size();
                }
            };
        }

        @Override
        public byte[] firstKey() {
            return sorted.getFirst().getKey();
        }

        @Override
        public byte[] lastKey() {
            return sorted.getLast().getKey();
        }

        @Override
        public SortedMap<byte[], byte[]> subMap(byte[] fromKey, byte[] toKey) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedMap<byte[], byte[]> headMap(byte[] toKey) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedMap<byte[], byte[]> tailMap(byte[] fromKey) {
            throw new UnsupportedOperationException();
        }
    }
}
