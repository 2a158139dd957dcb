package dev.strata.engine;

import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.version.DeltaContents;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Keeps the incremental chain: each flush's (or ingest's) outputs become a delta that replicas
 * catch up from, and the oldest deltas go once the bytes only the chain holds exceed the budget.
 */
final class DeltaKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaKeeper.class);
    private final Path dir;
    private final EngineOptions options;
    private final VersionSet versions;
    private final ValueLogs valueLogs;
    private final DeltaChain deltas;

    DeltaKeeper(Path dir, EngineOptions options, VersionSet versions, ValueLogs valueLogs, DeltaChain deltas) {
        this.dir = dir;
        this.options = options;
        this.versions = versions;
        this.valueLogs = valueLogs;
        this.deltas = deltas;
    }

    /**
     * Applies a flush's (or an ingest's) edit and keeps its outputs as a delta of the incremental
     * chain covering {@code (coveredBefore, edit.lastSequence]}: linked before the edit, while
     * no compaction can take them yet, recorded after it. The chain is an optimisation for
     * replicas catching up: a failure to keep it is logged and leaves the chain to restart.
     */
    void commit(VersionEdit edit, long coveredBefore) throws IOException {
        boolean keepDelta = options.deltaRetention() > 0;
        Delta delta = new DeltaContents(coveredBefore, edit.lastSequence(), edit.appliedMarker(), edit.newFiles(),
                edit.newValueLogs());
        if (keepDelta) {
            try {
                deltas.linkFiles(dir, valueLogs.directory(), delta);
            } catch (IOException e) {
                LOG.warn("cannot keep the flush outputs as a delta ({}); the incremental chain restarts", e.toString());
                keepDelta = false;
                deltas.clear();
            }
        }
        versions.logAndApply(edit);
        if (keepDelta) {
            try {
                deltas.append(delta);
            } catch (IOException e) {
                LOG.warn("cannot record a delta ({}); the incremental chain restarts", e.toString());
                deltas.clear();
            }
        }
    }

    /**
     * Releases the oldest deltas while the bytes only the chain holds exceed the budget. Run
     * after obsolete files are deleted: that is when a compacted-away table becomes the chain's
     * alone.
     */
    void enforceBudget() {
        try {
            deltas.enforceBudget((long) (options.deltaRetention() * versions.current().liveBytesEstimate()));
        } catch (IOException e) {
            LOG.warn("cannot trim the incremental chain: {}", e.toString());
        }
    }
}
