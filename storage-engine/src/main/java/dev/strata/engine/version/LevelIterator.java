package dev.strata.engine.version;

import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.InternalKey;

import java.util.List;

/**
 * Iterates the files of one sorted level (L1 or deeper: files do not overlap and are ordered
 * by key) as one sequence, opening one table at a time. Not thread-safe.
 */
public final class LevelIterator implements InternalIterator {
    private final List<FileMetadata> files;
    private final TableCache tableCache;
    private int index = -1;
    private InternalIterator current;

    public LevelIterator(List<FileMetadata> files, TableCache tableCache) {
        this.files = files;
        this.tableCache = tableCache;
    }

    @Override
    public boolean valid() {
        return current != null && current.valid();
    }

    @Override
    public void seekToFirst() {
        open(0);
        if (current != null) {
            current.seekToFirst();
        }
        skipExhausted();
    }

    @Override
    public void seek(byte[] target) {
        open(findFile(files, target));
        if (current != null) {
            current.seek(target);
        }
        skipExhausted();
    }

    @Override
    public void next() {
        current.next();
        skipExhausted();
    }

    private void skipExhausted() {
        while (current != null && !current.valid()) {
            open(index + 1);
            if (current != null) {
                current.seekToFirst();
            }
        }
    }

    private void open(int i) {
        if (current != null) {
            current.close();
            current = null;
        }
        index = i;
        if (i < files.size()) {
            current = tableCache.iterator(files.get(i));
        }
    }

    /** Index of the first file whose largest key is at or after {@code target}; size if none. */
    static int findFile(List<FileMetadata> files, byte[] target) {
        int lo = 0;
        int hi = files.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (InternalKey.COMPARATOR.compare(files.get(mid).largest(), target) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    public byte[] key() {
        return current.key();
    }

    @Override
    public byte[] value() {
        return current.value();
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
