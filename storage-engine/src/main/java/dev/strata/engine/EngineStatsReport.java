package dev.strata.engine;

import dev.strata.engine.cache.BlockCache;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.sst.FilterStats;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.Version;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Assembles {@link Engine#stats()}: the counters, the levels and value logs of the current version, and the disk usage. */
final class EngineStatsReport {
    private EngineStatsReport() {}

    /** The engine's counters and sizes now. */
    static EngineStats collect(EngineCore core, FilterStats filterStats, BlockCache blockCache) {
        Statistics stats = core.stats;
        Version v = core.versions.acquireCurrent();
        try {
            List<EngineStats.LevelStats> levels = new ArrayList<>();
            for (int l = 0; l < v.numLevels(); l++) {
                long raw = 0;
                for (FileMetadata f : v.files(l)) {
                    raw += f.rawDataBytes();
                }
                levels.add(new EngineStats.LevelStats(l, v.files(l).size(), v.levelBytes(l), raw));
            }
            MemTables view = core.memtables;
            long memBytes = view.mem().approximateBytes();
            for (MemTable m : view.immsNewestFirst()) {
                memBytes += m.approximateBytes();
            }
            List<EngineStats.ValueLogStats> logs = new ArrayList<>();
            for (var f : v.valueLogs().values()) {
                logs.add(new EngineStats.ValueLogStats(f.metadata().id().fileName(), f.metadata().fileSize(),
                        f.garbageBytes(), f.metadata().provisionalBytes()));
            }

            return new EngineStats(stats.userBytes.sum(), stats.walBytes.sum(), stats.walSyncs.sum(),
                    stats.flushBytes.sum(), stats.compactionBytesRead.sum(), stats.compactionBytesWritten.sum(),
                    stats.valueLogBytes.sum(), stats.relocatedBytes.sum(), stats.recompressedBytes.sum(),
                    v.liveBytesEstimate(), directoryBytes(core), levels, stats.flushes.sum(), stats.compactions.sum(),
                    stats.gcCompactions.sum(), stats.stallSlowdowns.sum(), stats.stallStops.sum(), stats.stallMicros.sum(),
                    stats.writesStopped, filterStats.useful(), filterStats.falsePositives(), blockCache.hits(),
                    blockCache.misses(), blockCache.usedBytes(), memBytes, view.immsNewestFirst().size(),
                    core.picker.pendingCompactionBytes(v), core.visibleSequence, logs, core.checkpoints.all().size(),
                    core.deltas.all().size(), deltaBytes(core));
        } finally {
            core.versions.release(v);
        }
    }

    private static long deltaBytes(EngineCore core) {
        try {
            return core.deltas.unsharedBytes();
        } catch (IOException e) {
            throw EngineException.io("measuring the incremental chain in " + core.dir, e);
        }
    }

    /** Real bytes of every file in the data directory and, when it is elsewhere, the value-log directory. */
    private static long directoryBytes(EngineCore core) {
        long total = directoryBytes(core.dir);
        if (!core.valueLogs.directory().equals(core.dir)) {
            total += directoryBytes(core.valueLogs.directory());
        }
        return total;
    }

    private static long directoryBytes(Path d) {
        long total = 0;
        try (var s = Files.list(d)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                try {
                    total += Files.size(p);
                } catch (IOException e) {
                    // deleted between listing and stat: it no longer takes space
                }
            }
        } catch (IOException e) {
            throw EngineException.io("listing " + d, e);
        }
        return total;
    }
}
