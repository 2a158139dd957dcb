package dev.strata.engine.compaction;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.compress.CompressionPolicy;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.Version;
import dev.strata.engine.vlog.ValueLogId;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Chooses the next compaction (LevelDB's {@code PickCompaction}, leveled). Each level gets a
 * score: L0 its file count over {@code level0CompactionTrigger}, deeper levels their stored
 * bytes over their target (10x per level by default, so compression also reduces compaction
 * work). The level with the highest score of at least 1 whose files are not already being
 * compacted is compacted into the next level. Within a level, files are taken round-robin by
 * key so every part of the key space gets its turn. Thread-safe.
 */
public final class CompactionPicker {
    private final EngineOptions options;
    private final byte[][] compactPointer;

    public CompactionPicker(EngineOptions options) {
        this.options = options;
        this.compactPointer = new byte[options.numLevels()][];
    }

    /** How urgently {@code level} needs compaction; 1 or more means it should be compacted. */
    public double score(Version v, int level) {
        if (level == v.numLevels() - 1) {
            return 0; // the last level has nowhere to go
        }
        if (level == 0) {
            return (double) v.files(0).size() / options.level0CompactionTrigger();
        }
        return (double) v.levelBytes(level) / options.maxBytesForLevel(level);
    }

    /**
     * Estimated bytes compactions must rewrite to bring every level under its target: L0 when
     * it is over its trigger, and for each deeper level its excess times the fan-out (the
     * bytes of the next level it will be merged with).
     */
    public long pendingCompactionBytes(Version v) {
        long pending = 0;
        if (v.files(0).size() >= options.level0CompactionTrigger()) {
            pending += v.levelBytes(0) + v.levelBytes(1);
        }
        for (int level = 1; level < v.numLevels() - 1; level++) {
            long excess = v.levelBytes(level) - options.maxBytesForLevel(level);
            if (excess > 0) {
                pending += excess * (options.levelSizeMultiplier() + 1);
            }
        }
        return pending;
    }

    /**
     * The compaction to run next: the most urgent level over its target, else a compaction that
     * garbage-collects one of {@code gcCandidates}; null when nothing is due or all candidates are busy.
     */
    public Compaction pick(Version v, Set<Long> busy, CompressionPolicy policy,
                           ValueLogGcPolicy gc, Set<ValueLogId> gcCandidates) {
        return pick(v, busy, policy, gc, gcCandidates, Set.of());
    }

    /**
     * As {@link #pick(Version, Set, CompressionPolicy, ValueLogGcPolicy, Set)}, and when neither
     * is due, a compaction that moves the values of one of {@code recompressCandidates} (files
     * with provisional records, offered only while the engine is calm) so they are recompressed.
     */
    public synchronized Compaction pick(Version v, Set<Long> busy, CompressionPolicy policy, ValueLogGcPolicy gc,
                                        Set<ValueLogId> gcCandidates, Set<ValueLogId> recompressCandidates) {
        Compaction c = pickByScore(v, busy, policy);
        if (c != null) {
            return c;
        }
        c = targeted(v, busy, policy, gc, gcCandidates, Compaction.Reason.GARBAGE);
        if (c != null || recompressCandidates.isEmpty()) {
            return c;
        }
        return targeted(v, busy, policy, gc, recompressCandidates, Compaction.Reason.RECOMPRESS);
    }

    /** The cheapest compaction that moves values out of one of {@code candidates}; null if none can run now. */
    private Compaction targeted(Version v, Set<Long> busy, CompressionPolicy policy, ValueLogGcPolicy gc,
                                Set<ValueLogId> candidates, Compaction.Reason reason) {
        if (candidates.isEmpty()) {
            return null;
        }
        ValueLogGcPolicy.TargetedFile t = gc.targetedCompactionFile(v, candidates, busy);
        if (t == null) {
            return null;
        }
        if (t.level() == 0) {
            Compaction l0 = pickLevel0(v, busy, policy);
            return l0 == null ? null : withReason(l0, reason);
        }
        // Rewrite just that table in place: the cheapest compaction that moves its values.
        int below = t.level() + 1;
        List<FileMetadata> grandparents = below < v.numLevels()
                ? v.overlapping(below, t.file().smallestUserKey(), t.file().largestUserKey()) : List.of();
        return new Compaction(t.level(), t.level(), List.of(t.file()), List.of(), grandparents,
                t.level() >= v.deepestNonEmptyLevel(), false, reason);
    }

    private static Compaction withReason(Compaction c, Compaction.Reason reason) {
        return new Compaction(c.level(), c.outputLevel(), c.inputs(), c.outputInputs(), c.grandparents(), c.bottommost(),
                false, reason);
    }

    private Compaction pickByScore(Version v, Set<Long> busy, CompressionPolicy policy) {
        Integer[] levels = new Integer[v.numLevels() - 1];
        for (int i = 0; i < levels.length; i++) {
            levels[i] = i;
        }
        Arrays.sort(levels, (a, b) -> Double.compare(score(v, b), score(v, a)));
        for (int level : levels) {
            if (score(v, level) < 1) {
                break;
            }
            Compaction c = level == 0 ? pickLevel0(v, busy, policy) : pickFileAt(v, level, busy, policy);

            if (c != null) {
                return c;
            }
        }
        return null;
    }

    private Compaction pickLevel0(Version v, Set<Long> busy, CompressionPolicy policy) {
        List<FileMetadata> inputs = v.files(0);
        if (inputs.isEmpty() || anyBusy(inputs, busy)) {
            return null;
        }
        return expand(v, 0, inputs, busy, policy, Compaction.Reason.SCORE);
    }

    private Compaction pickFileAt(Version v, int level, Set<Long> busy, CompressionPolicy policy) {
        List<FileMetadata> files = v.files(level);
        int start = 0;
        byte[] pointer = compactPointer[level];
        if (pointer != null) {
            while (start < files.size() && InternalKey.COMPARATOR.compare(files.get(start).largest(), pointer) <= 0) {
                start++;
            }
        }
        for (int i = 0; i < files.size(); i++) {
            FileMetadata f = files.get((start + i) % files.size());
            if (busy.contains(f.number())) {
                continue;
            }
            Compaction c = expand(v, level, List.of(f), busy, policy, Compaction.Reason.SCORE);
            if (c != null) {
                compactPointer[level] = f.largest();
                return c;
            }
        }
        return null;
    }

    /**
     * A manual compaction of the files of {@code level} overlapping {@code [from, to]} (user
     * keys, null = open) into the next level, or null when there are none.
     */
    public synchronized Compaction pickManual(Version v, int level, byte[] from, byte[] to, Set<Long> busy,
                                              CompressionPolicy policy) {
        List<FileMetadata> inputs = v.overlapping(level, from, to);
        if (inputs.isEmpty()) {
            return null;
        }
        if (level == 0) {
            inputs = v.files(0); // L0 files overlap each other: take them all so older versions are not left above newer ones
        }
        if (anyBusy(inputs, busy)) {
            throw new IllegalStateException("manual compaction found busy files; callers wait for running compactions");
        }
        return expand(v, level, inputs, busy, policy, Compaction.Reason.MANUAL);
    }

    /** Adds the overlapping files of the next level and decides bottommost and trivial move; null if any is busy. */
    private Compaction expand(Version v, int level, List<FileMetadata> inputs, Set<Long> busy,
                              CompressionPolicy policy, Compaction.Reason reason) {
        byte[] smallest = null;
        byte[] largest = null;
        for (FileMetadata f : inputs) {
            if (smallest == null || InternalKey.compareUserKeys(f.smallest(), smallest) < 0) {
                smallest = f.smallest();
            }
            if (largest == null || InternalKey.compareUserKeys(f.largest(), largest) > 0) {
                largest = f.largest();
            }
        }
        byte[] from = InternalKey.userKeyOf(smallest);
        byte[] to = InternalKey.userKeyOf(largest);
        int outputLevel = level + 1;
        List<FileMetadata> next = v.overlapping(outputLevel, from, to);
        if (anyBusy(next, busy)) {
            return null;
        }
        List<FileMetadata> grandparents = outputLevel + 1 < v.numLevels()
                ? v.overlapping(outputLevel + 1, from, to) : new ArrayList<>();
        boolean bottommost = outputLevel >= v.deepestNonEmptyLevel();
        long grandparentBytes = grandparents.stream().mapToLong(FileMetadata::fileSize).sum();
        boolean trivialMove = inputs.size() == 1 && next.isEmpty()
                && grandparentBytes <= maxGrandparentOverlap(options)
                && policy.codecFor(level, false) == policy.codecFor(outputLevel, bottommost);
        return new Compaction(level, outputLevel, inputs, next, grandparents, bottommost, trivialMove, reason);
    }

    /**
     * A manual rewrite in place of the files of the bottommost {@code level} overlapping
     * {@code [from, to]}: what drops versions a released snapshot kept and tombstones that hide
     * nothing, once everything else is already at the bottom. Null when there are no such files.
     */
    public synchronized Compaction pickManualInPlace(Version v, int level, byte[] from, byte[] to) {
        List<FileMetadata> inputs = v.overlapping(level, from, to);
        if (inputs.isEmpty() || level == 0) {
            return null;
        }
        List<FileMetadata> grandparents = level + 1 < v.numLevels() ? v.overlapping(level + 1, from, to) : List.of();
        return new Compaction(level, level, inputs, List.of(), grandparents, true, false, Compaction.Reason.MANUAL);
    }

    /** LevelDB's rule: an output overlapping more than ten target files of the grandparent level is cut. */
    public static long maxGrandparentOverlap(EngineOptions options) {
        return 10 * options.targetFileSize();
    }

    private static boolean anyBusy(List<FileMetadata> files, Set<Long> busy) {
        for (FileMetadata f : files) {
            if (busy.contains(f.number())) {
                return true;
            }
        }
        return false;
    }
}
