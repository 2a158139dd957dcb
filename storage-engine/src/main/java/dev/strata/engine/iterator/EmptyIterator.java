package dev.strata.engine.iterator;

/** An iterator with no entries. */
public final class EmptyIterator implements InternalIterator {
    @Override public boolean valid() { return false; }
    @Override public void seekToFirst() {}
    @Override public void seek(byte[] target) {}
    @Override public void next() { throw new IllegalStateException("not valid"); }
    @Override public byte[] key() { throw new IllegalStateException("not valid"); }
    @Override public byte[] value() { throw new IllegalStateException("not valid"); }
    @Override public void close() {}
}
