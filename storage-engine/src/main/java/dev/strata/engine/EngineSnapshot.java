package dev.strata.engine;

import java.util.Objects;

/**
 * A read view pinned at one sequence ({@link Engine#snapshot()}): registered in the engine's
 * snapshot list until closed, so compactions keep what it can see.
 */
final class EngineSnapshot implements Snapshot {
    private final EngineCore core;
    private final Reads reads;
    private final long sequence;
    private boolean released;

    EngineSnapshot(EngineCore core, Reads reads, long sequence) {
        this.core = core;
        this.reads = reads;
        this.sequence = sequence;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    @Override
    public byte[] get(byte[] key) {
        Objects.requireNonNull(key, "key");
        checkLive();
        return reads.get(key, sequence);
    }

    @Override
    public KeyValueIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        checkLive();
        return reads.scan(fromInclusive, toExclusive, sequence);
    }

    private synchronized void checkLive() {
        if (released) {
            throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "snapshot " + sequence + " is closed");
        }
        core.checkOpen();
    }

    @Override
    public synchronized void close() {
        if (!released) {
            released = true;
            core.snapshots.remove(sequence);
        }
    }
}
