package dev.strata.engine.compaction;

import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;

import java.util.function.Predicate;

/**
 * Decides which entries of a sorted stream a flush or compaction may drop (LevelDB's rules in
 * {@code DoCompactionWork}):
 * <ul>
 *   <li>an entry is <em>shadowed</em> when a newer entry of the same key has a sequence at or
 *       below the oldest snapshot: every reader sees that newer entry instead;</li>
 *   <li>a tombstone is dropped when the oldest snapshot sees it and no deeper level can hold an
 *       older version of its key (the output is the key's base level), since then nothing is
 *       left for it to hide.</li>
 * </ul>
 * Entries must be offered in internal-key order. Not thread-safe.
 */
public final class ObsoleteEntryFilter {
    private final long smallestSnapshot;
    private final Predicate<byte[]> isBaseLevelForUserKey;
    private byte[] currentUserKey;
    private long lastSequenceForKey;
    private long droppedEntries;

    /**
     * @param smallestSnapshot      the oldest sequence any reader may still read at
     * @param isBaseLevelForUserKey true when no level below the output overlaps the user key
     */
    public ObsoleteEntryFilter(long smallestSnapshot, Predicate<byte[]> isBaseLevelForUserKey) {
        this.smallestSnapshot = smallestSnapshot;
        this.isBaseLevelForUserKey = isBaseLevelForUserKey;
    }

    /** True to keep the entry with this encoded internal key. */
    public boolean keep(byte[] internalKey) {
        if (currentUserKey == null || InternalKey.compareUserKeys(currentUserKey, internalKey) != 0) {
            currentUserKey = internalKey;
            lastSequenceForKey = Long.MAX_VALUE;
        }
        long sequence = InternalKey.sequenceOf(internalKey);
        boolean drop;
        if (lastSequenceForKey <= smallestSnapshot) {
            drop = true;
        } else {
            drop = InternalKey.typeCodeOf(internalKey) == ValueType.DELETION.code()
                    && sequence <= smallestSnapshot
                    && isBaseLevelForUserKey.test(InternalKey.userKeyOf(internalKey));
        }
        lastSequenceForKey = sequence;
        if (drop) {
            droppedEntries++;
        }
        return !drop;
    }

    public long droppedEntries() {
        return droppedEntries;
    }
}
