package dev.strata.engine.iterator;

import dev.strata.engine.key.InternalKey;

import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges sorted iterators into one sorted sequence with a heap (LevelDB's {@code merger}).
 * Equal keys (which distinct sequence numbers make rare) come out in child order. Closing it
 * closes every child. Not thread-safe.
 */
public final class MergingIterator implements InternalIterator {
    private final List<InternalIterator> children;
    private final PriorityQueue<Integer> heap;
    private Integer current;

    public MergingIterator(List<InternalIterator> children) {
        this.children = List.copyOf(children);
        this.heap = new PriorityQueue<>(Math.max(1, children.size()), (a, b) -> {
            int c = InternalKey.COMPARATOR.compare(this.children.get(a).key(), this.children.get(b).key());
            return c != 0 ? c : Integer.compare(a, b);
        });
    }

    @Override
    public boolean valid() {
        return current != null;
    }

    @Override
    public void seekToFirst() {
        heap.clear();
        for (int i = 0; i < children.size(); i++) {
            children.get(i).seekToFirst();
            offer(i);
        }
        current = heap.poll();
    }

    @Override
    public void seek(byte[] target) {
        heap.clear();
        for (int i = 0; i < children.size(); i++) {
            children.get(i).seek(target);
            offer(i);
        }
        current = heap.poll();
    }

    @Override
    public void next() {
        children.get(current).next();
        offer(current);
        current = heap.poll();
    }

    private void offer(int i) {
        if (children.get(i).valid()) {
            heap.add(i);
        }
    }

    @Override
    public byte[] key() {
        return children.get(current).key();
    }

    @Override
    public byte[] value() {
        return children.get(current).value();
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (InternalIterator c : children) {
            try {
                c.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        current = null;
        if (first != null) {
            throw first;
        }
    }
}
