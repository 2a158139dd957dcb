package dev.strata.engine.compaction;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.version.Version;

/**
 * Whether the engine's background work is behind its writes, which an adaptive compression
 * policy answers with a faster codec (see {@code CompressionPolicy#adaptive}), and whether it is
 * calm enough to recompress what it wrote that way.
 */
public final class Backlog {
    private Backlog() {}

    /**
     * Whether a flush is behind: it takes more than one memtable (another filled while the last
     * flush ran, so writers are close to waiting), or L0 already holds as many tables as start a
     * compaction (compactions are not keeping up with flushes).
     *
     * @param memtables the memtables this flush writes
     * @param base      the version the flush's table joins
     */
    public static boolean flushBehind(int memtables, Version base, EngineOptions options) {
        return memtables > 1 || base.files(0).size() >= options.level0CompactionTrigger();
    }

    /**
     * Whether the engine is calm: no memtable waits for a flush, no flush or compaction runs.
     * Recompression starts only then, and then only when no level needs a compaction and no
     * value log needs collecting (the picker tries those first).
     */
    public static boolean calm(int immutableMemtables, boolean flushRunning, int runningCompactions) {
        return immutableMemtables == 0 && !flushRunning && runningCompactions == 0;
    }
}
