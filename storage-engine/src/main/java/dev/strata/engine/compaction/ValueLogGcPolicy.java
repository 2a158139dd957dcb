package dev.strata.engine.compaction;

import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.ValueLogFile;
import dev.strata.engine.version.Version;
import dev.strata.engine.vlog.ValueLogId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides which value-log files garbage collection empties, from the exact garbage counts in
 * the version, never from a timer (Badger's manual, one-file-at-a-time GC let garbage grow
 * without bound; Titan and BlobDB drive it from compaction). A file is a candidate when
 * <ul>
 *   <li>its garbage ratio reaches {@code garbageRatio}, or</li>
 *   <li>the value logs as a whole take more than {@code spaceAmplification} times their live
 *       bytes: then the files with the most garbage are added until collecting them would bring
 *       the whole back under the target.</li>
 * </ul>
 * Compactions relocate the live values of candidates they read; when no regular compaction is
 * due, {@link #targetedCompactionFile} names a table to compact so that garbage cannot pile up
 * under a workload that only overwrites. Stateless and thread-safe.
 */
public final class ValueLogGcPolicy {
    private final double garbageRatio;
    private final double spaceAmplification;

    /**
     * @param garbageRatio       0 to 1; 1 collects only files with nothing live (which need no collection)
     * @param spaceAmplification total over live bytes the value logs may reach; 0 turns this rule off
     */
    public ValueLogGcPolicy(double garbageRatio, double spaceAmplification) {
        this.garbageRatio = garbageRatio;
        this.spaceAmplification = spaceAmplification;
    }

    /** Files whose live values compactions should relocate. */
    public Set<ValueLogId> candidates(Version v) {
        Set<ValueLogId> out = new LinkedHashSet<>();
        long total = 0;
        long garbage = 0;
        for (ValueLogFile f : v.valueLogs().values()) {
            total += f.metadata().recordBytes();
            garbage += f.garbageBytes();
            if (f.garbageBytes() > 0 && f.garbageRatio() >= garbageRatio) {
                out.add(f.metadata().id());
            }
        }
        if (spaceAmplification > 0 && total > 0 && total > spaceAmplification * (total - garbage)) {
            List<ValueLogFile> byGarbage = new ArrayList<>(v.valueLogs().values());
            byGarbage.sort(Comparator.comparingDouble(ValueLogFile::garbageRatio).reversed());
            long remainingTotal = total;
            long remainingGarbage = garbage;
            for (ValueLogFile f : byGarbage) {
                if (remainingTotal <= spaceAmplification * (remainingTotal - remainingGarbage) || f.garbageBytes() == 0) {
                    break;
                }
                out.add(f.metadata().id());
                // Collecting f removes its garbage and rewrites its live bytes elsewhere.
                remainingTotal -= f.garbageBytes();
                remainingGarbage -= f.garbageBytes();
            }
        }
        return out;
    }

    /**
     * The value-log file whose live values a calm engine should move next to recompress its
     * provisional records (see {@code CompressionPolicy#adaptive}): the one with the most
     * provisional bytes among those with live data; empty when there is none. One at a time, so
     * recompression takes one compaction thread's worth of background work at most.
     */
    public Set<ValueLogId> provisionalCandidates(Version v) {
        ValueLogFile best = null;
        for (ValueLogFile f : v.valueLogs().values()) {
            long provisional = f.metadata().provisionalBytes();
            if (provisional > 0 && f.garbageBytes() < f.metadata().recordBytes()
                    && (best == null || provisional > best.metadata().provisionalBytes())) {
                best = f;
            }
        }
        return best == null ? Set.of() : Set.of(best.metadata().id());
    }

    /**
     * A table whose compaction would relocate values out of a candidate, preferring the
     * candidate with the most garbage and, among its tables, the deepest; null when no table
     * refers to any candidate.
     */
    public TargetedFile targetedCompactionFile(Version v, Set<ValueLogId> candidates, Set<Long> busy) {
        List<ValueLogFile> ordered = new ArrayList<>();
        for (ValueLogId id : candidates) {
            ValueLogFile f = v.valueLogs().get(id);
            if (f != null) {
                ordered.add(f);
            }
        }
        ordered.sort(Comparator.comparingDouble(ValueLogFile::garbageRatio).reversed());
        for (ValueLogFile candidate : ordered) {
            for (int level = v.numLevels() - 1; level >= 0; level--) {
                for (FileMetadata t : v.files(level)) {
                    if (!busy.contains(t.number()) && t.valueLogs().contains(candidate.metadata().id())) {
                        return new TargetedFile(level, t);
                    }
                }
            }
        }
        return null;
    }

    /** A table chosen for a garbage-collection compaction and its level. */
    public record TargetedFile(int level, FileMetadata file) {}
}
