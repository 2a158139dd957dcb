package dev.strata.engine.sst;

import dev.strata.engine.util.ByteSink;

import java.util.Arrays;

/**
 * Builds a block of sorted key/value entries with prefix-compressed keys (LevelDB's
 * {@code block_builder}). Entry: {@code [varint shared][varint unshared][varint valueLength]
 * [unshared key bytes][value]}. Every {@code restartInterval} entries a key is stored whole
 * (shared = 0) and its offset recorded, so a reader can binary-search the restart points.
 * The block ends with the restart offsets (u32 each) and their count (u32). Not thread-safe.
 */
final class BlockBuilder {
    private final int restartInterval;
    private final ByteSink buffer = new ByteSink(4096);
    private int[] restarts = new int[16];
    private int restartCount;
    private int sinceRestart;
    private byte[] lastKey = new byte[0];
    private int entries;

    BlockBuilder(int restartInterval) {
        if (restartInterval < 1) {
            throw new IllegalArgumentException("restartInterval " + restartInterval);
        }
        this.restartInterval = restartInterval;
        reset();
    }

    void reset() {
        buffer.reset();
        restartCount = 0;
        addRestart(0);
        sinceRestart = 0;
        lastKey = new byte[0];
        entries = 0;
    }

    private void addRestart(int offset) {
        if (restartCount == restarts.length) {
            restarts = Arrays.copyOf(restarts, restarts.length * 2);
        }
        restarts[restartCount++] = offset;
    }

    /** REQUIRES: {@code key} sorts after every key added since the last reset. */
    void add(byte[] key, byte[] value) {
        int shared = 0;
        if (sinceRestart < restartInterval) {
            shared = Arrays.mismatch(lastKey, key);
            if (shared < 0) {
                shared = key.length; // equal keys cannot happen in a table, but stay correct
            }
            shared = Math.min(shared, Math.min(lastKey.length, key.length));
        } else {
            addRestart(buffer.size());
            sinceRestart = 0;
        }
        buffer.putVarint(shared).putVarint(key.length - shared).putVarint(value.length);
        buffer.put(key, shared, key.length - shared).put(value);
        lastKey = key;
        sinceRestart++;
        entries++;
    }

    /** Bytes the finished block would take. */
    int currentSize() {
        return buffer.size() + restartCount * 4 + 4;
    }

    boolean isEmpty() {
        return entries == 0;
    }

    int entries() {
        return entries;
    }

    /** Appends the restart array and returns the block's bytes; then {@link #reset()} before reuse. */
    ByteSink finish() {
        for (int i = 0; i < restartCount; i++) {
            buffer.putInt(restarts[i]);
        }
        buffer.putInt(restartCount);
        return buffer;
    }
}
