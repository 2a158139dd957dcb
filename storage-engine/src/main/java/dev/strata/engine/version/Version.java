package dev.strata.engine.version;

import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.Lookup;
import dev.strata.engine.util.RefCount;
import dev.strata.engine.vlog.ValueLogId;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * An immutable set of table files per level: the on-disk part of one consistent view of the
 * tree. L0 files may overlap and are ordered newest first (by largest sequence); files of L1
 * and deeper do not overlap and are ordered by key.
 *
 * <p>A version is reference counted: the version set holds one reference while it is current,
 * and every read or compaction that uses it holds one more. Files of a version whose count
 * reaches zero may be deleted if no other live version lists them.
 */
public final class Version {
    /** L0 order: newest data first. */
    static final Comparator<FileMetadata> NEWEST_FIRST =
            Comparator.comparingLong(FileMetadata::largestSequence).reversed()
                    .thenComparing(Comparator.comparingLong(FileMetadata::number).reversed());
    /** L1+ order: by smallest key. */
    static final Comparator<FileMetadata> BY_SMALLEST_KEY =
            (a, b) -> InternalKey.COMPARATOR.compare(a.smallest(), b.smallest());

    private final List<List<FileMetadata>> levels;
    private final SortedMap<ValueLogId, ValueLogFile> valueLogs;
    private final RefCount refs;

    /**
     * @param levels    files per level, already ordered as the class comment says
     * @param valueLogs the value-log files this version's tables may point into
     */
    Version(List<List<FileMetadata>> levels, SortedMap<ValueLogId, ValueLogFile> valueLogs, Consumer<Version> onRelease) {
        List<List<FileMetadata>> copy = new ArrayList<>(levels.size());
        for (List<FileMetadata> l : levels) {
            copy.add(List.copyOf(l));
        }
        this.levels = List.copyOf(copy);
        this.valueLogs = Collections.unmodifiableSortedMap(new TreeMap<>(valueLogs));
        this.refs = new RefCount(() -> onRelease.accept(this));
    }

    /** The value-log files of this version with their garbage, by id. */
    public SortedMap<ValueLogId, ValueLogFile> valueLogs() {
        return valueLogs;
    }

    public int numLevels() {
        return levels.size();
    }

    public List<FileMetadata> files(int level) {
        return levels.get(level);
    }

    public long levelBytes(int level) {
        long sum = 0;
        for (FileMetadata f : levels.get(level)) {
            sum += f.fileSize();
        }
        return sum;
    }

    /** The deepest level holding a file, or -1 for an empty tree. */
    public int deepestNonEmptyLevel() {
        for (int l = levels.size() - 1; l >= 0; l--) {
            if (!levels.get(l).isEmpty()) {
                return l;
            }
        }
        return -1;
    }

    /** Takes a reference unless the version was already released; see the class comment. */
    public boolean tryRef() {
        return refs.tryAcquire();
    }

    public void unref() {
        refs.release();
    }

    /**
     * The newest version of {@code userKey} visible at {@code sequence}: L0 files by descending
     * largest sequence, then at most one file per deeper level, whose entries are all older
     * than any L0 entry of the same key. In L0 sequence numbers decide, not position alone:
     * ingested files (checkpoint deltas) may overlap local ones in sequence range, so after a
     * hit the search goes on while a file could still hold a newer version. When ranges do not
     * overlap (every flush) that check stops at once.
     */
    public Lookup get(byte[] userKey, long sequence, TableCache tableCache) {
        Lookup best = null;
        for (FileMetadata f : levels.get(0)) {
            if (best != null && f.largestSequence() <= best.sequence()) {
                break;
            }
            if (f.overlaps(userKey, userKey)) {
                Lookup r = tableCache.get(f, userKey, sequence);
                if (r.isDecided() && (best == null || r.sequence() > best.sequence())) {
                    best = r;
                }
            }
        }
        if (best != null) {
            return best;
        }
        byte[] target = InternalKey.encodeLookupKey(userKey, sequence);
        for (int level = 1; level < levels.size(); level++) {
            List<FileMetadata> files = levels.get(level);
            int i = LevelIterator.findFile(files, target);
            if (i < files.size() && InternalKey.compareUserKey(files.get(i).smallest(), userKey) <= 0) {
                Lookup r = tableCache.get(files.get(i), userKey, sequence);
                if (r.isDecided()) {
                    return r;
                }
            }
        }
        return Lookup.NOT_FOUND;
    }

    /** True when a file of {@code level} (1 or deeper, where files are sorted and disjoint) covers {@code userKey}. */
    public boolean levelCovers(int level, byte[] userKey) {
        List<FileMetadata> files = levels.get(level);
        int i = LevelIterator.findFile(files, InternalKey.encodeLookupKey(userKey, InternalKey.MAX_SEQUENCE));
        return i < files.size() && InternalKey.compareUserKey(files.get(i).smallest(), userKey) <= 0;
    }

    /** Files of {@code level} whose user-key range intersects {@code [from, to]}; null bounds are open. */
    public List<FileMetadata> overlapping(int level, byte[] fromUserKey, byte[] toUserKey) {
        List<FileMetadata> out = new ArrayList<>();
        for (FileMetadata f : levels.get(level)) {
            if (f.overlaps(fromUserKey, toUserKey)) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * Estimated bytes of the data after a full compaction: RocksDB's estimate-live-data-size for
     * the tables (from the deepest level up, each table counted unless a table counted before
     * already covers its whole key range), plus the value-log bytes not counted as garbage.
     */
    public long liveBytesEstimate() {
        TreeMap<byte[], byte[]> counted = new TreeMap<>(Arrays::compareUnsigned);
        long live = 0;
        for (int l = levels.size() - 1; l >= 0; l--) {
            List<FileMetadata> added = new ArrayList<>();
            for (FileMetadata f : levels.get(l)) {
                var floor = counted.floorEntry(f.smallestUserKey());
                boolean covered = floor != null && Arrays.compareUnsigned(floor.getValue(), f.largestUserKey()) >= 0;
                if (!covered) {
                    live += f.fileSize();
                    added.add(f);
                }
            }
            for (FileMetadata f : added) {
                counted.merge(f.smallestUserKey(), f.largestUserKey(), (a, b) -> Arrays.compareUnsigned(a, b) >= 0 ? a : b);
            }
        }
        for (ValueLogFile f : valueLogs.values()) {
            live += f.liveBytes();
        }
        return live;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Version[");
        for (int l = 0; l < levels.size(); l++) {
            if (!levels.get(l).isEmpty()) {
                s.append(" L").append(l).append('=').append(levels.get(l).size()).append(" files/")
                        .append(levelBytes(l)).append('B');
            }
        }
        if (!valueLogs.isEmpty()) {
            long bytes = valueLogs.values().stream().mapToLong(f -> f.metadata().fileSize()).sum();
            long garbage = valueLogs.values().stream().mapToLong(ValueLogFile::garbageBytes).sum();
            s.append(" vlog=").append(valueLogs.size()).append(" files/").append(bytes).append("B (")
                    .append(garbage).append("B garbage)");
        }
        return s.append(" ]").toString();
    }
}
