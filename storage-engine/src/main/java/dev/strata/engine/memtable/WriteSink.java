package dev.strata.engine.memtable;

import dev.strata.engine.key.ValueType;

/**
 * Where decoded writes go: the live {@link MemTable}, or a {@link MemTableLoader} that sorts the
 * writes of a log replay once at the end. REQUIRES: a single writer at a time; sequences increase.
 */
public interface WriteSink {
    /** Adds one write; the sink keeps {@code value} itself (callers hand over an array they no longer change). */
    void add(long sequence, ValueType type, byte[] userKey, byte[] value);

    /**
     * Notes that a write at {@code sequence} was applied even though it added no entry (a batch
     * holding only an applied marker), so the memtable's flush covers that sequence.
     */
    void noteSequence(long sequence);

    /** Records the marker of the newest batch applied. */
    void setAppliedMarker(byte[] marker);
}
