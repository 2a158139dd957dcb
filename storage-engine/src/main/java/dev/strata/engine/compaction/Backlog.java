package dev.strata.engine.compaction;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.version.Version;

import java.util.concurrent.TimeUnit;

/**
 * Whether the engine's background work is behind its writes, which an adaptive compression
 * policy answers with a faster codec (see {@code CompressionPolicy#adaptive}), and whether it is
 * idle enough to recompress what it wrote that way.
 */
public final class Backlog {
    /**
     * Recompression waits this long after the last flush: a flush that recent means writes are
     * still filling memtables, and the CPU is theirs. A waiter for settled background work
     * ({@code Engine.waitForCompactions}) does not wait for it.
     */
    public static final long IDLE_AFTER_FLUSH_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * The share of a memtable that, filled while the last flush ran, marks the writes as too fast
     * for a zstd flush: zstd compresses several times slower than LZ4, so a flush at its pace
     * would let the next memtable fill before it ends.
     */
    static final double FAST_WRITES_FILL = 0.25;

    private Backlog() {}

    /**
     * Whether a flush is behind: it takes more than one memtable (another filled while the last
     * flush ran), L0 already holds as many tables as start a compaction (compactions are not
     * keeping up with flushes), or writes filled at least {@link #FAST_WRITES_FILL} of the next
     * memtable while the last flush ran. The last rule keeps a sustained burst on the fast codec:
     * without it, a fast flush leaves nothing waiting, the next one is slow again, and the two
     * alternate.
     *
     * @param memtables                 the memtables this flush writes
     * @param base                      the version the flush's table joins
     * @param activeFillAtLastFlushEnd  the active memtable's bytes over the write buffer size when
     *                                  the last flush finished
     */
    public static boolean flushBehind(int memtables, Version base, EngineOptions options, double activeFillAtLastFlushEnd) {
        return memtables > 1 || base.files(0).size() >= options.level0CompactionTrigger()
                || activeFillAtLastFlushEnd >= FAST_WRITES_FILL;
    }

    /**
     * Whether the engine is idle enough to recompress: no memtable waits for a flush, no flush or
     * compaction runs, and the last flush ended {@link #IDLE_AFTER_FLUSH_NANOS} ago or someone
     * waits for the background work to settle. The picker still tries a level that needs a
     * compaction and a value log that needs collecting first.
     */
    public static boolean idle(int immutableMemtables, boolean flushRunning, int runningCompactions,
                               long nanosSinceLastFlush, boolean settling) {
        return immutableMemtables == 0 && !flushRunning && runningCompactions == 0
                && (settling || nanosSinceLastFlush >= IDLE_AFTER_FLUSH_NANOS);
    }
}
