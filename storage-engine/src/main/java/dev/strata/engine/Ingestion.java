package dev.strata.engine;

import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/** Adds received deltas (a replica catching up from the incremental chain) as L0 tables. */
final class Ingestion {
    private static final Logger LOG = LoggerFactory.getLogger(Ingestion.class);
    private final EngineCore core;
    private final ReentrantLock mutex;
    private final WriteQueue writeQueue;
    private final JobOutputs jobOutputs;
    private final DeltaKeeper deltaKeeper;
    private final Compactions compactions;
    private final Path dir;
    private final VersionSet versions;
    private final ValueLogs valueLogs;

    Ingestion(EngineCore core, WriteQueue writeQueue, JobOutputs jobOutputs, DeltaKeeper deltaKeeper, Compactions compactions) {
        this.core = core;
        this.writeQueue = writeQueue;
        this.jobOutputs = jobOutputs;
        this.deltaKeeper = deltaKeeper;
        this.compactions = compactions;
        this.dir = core.dir;
        this.versions = core.versions;
        this.valueLogs = core.valueLogs;
        this.mutex = core.mutex;
    }

    /**
     * {@link Engine#ingest}: at the head of the write queue, flushes the memtable, checks the
     * deltas start within what this engine holds, stages them as L0 tables and moves the
     * sequences to their end.
     */
    void ingest(Path staging, List<Delta> received) {
        core.checkOpen();
        writeQueue.runExclusive(() -> {
            writeQueue.makeRoomForWrite(true);
            while (!core.imms.isEmpty()) {
                core.checkWritable();
                core.awaitBackground(0);
            }
            if (received.isEmpty() || received.get(0).fromExclusive() > core.lastSequence) {
                throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "deltas start after sequence "
                        + (received.isEmpty() ? "?" : received.get(0).fromExclusive()) + " but this engine holds only up to "
                        + core.lastSequence);
            }
            long holdsUpTo = core.lastSequence;
            mutex.unlock();
            long to;
            try {
                to = ingestStaged(staging, received, holdsUpTo);
            } finally {
                mutex.lock();
            }
            core.lastSequence = Math.max(core.lastSequence, to);
            core.visibleSequence = core.lastSequence;
            compactions.maybeSchedule();
        });
    }

    private long ingestStaged(Path staging, List<Delta> received, long holdsUpTo) {
        Version current = versions.acquireCurrent();
        try {
            long coveredBefore = versions.lastSequence();
            DeltaIngest.Result r = DeltaIngest.stage(staging, received, holdsUpTo, dir, valueLogs.directory(), versions,
                    current, jobOutputs.level0TableOptions(current, core.policy));
            VersionEdit.Builder edit = VersionEdit.builder().lastSequence(Math.max(r.toSequence(), coveredBefore));
            if (r.appliedMarker() != null) {
                edit.appliedMarker(r.appliedMarker());
            }
            r.tables().forEach(t -> edit.addFile(0, t.file()));
            r.valueLogs().forEach(edit::addValueLog);
            r.garbage().forEach(edit::addGarbage);
            try {
                deltaKeeper.commit(edit.build(), coveredBefore);
            } catch (IOException | RuntimeException e) {
                DeltaIngest.release(versions, r);
                throw e;
            }
            LOG.info("ingested {} deltas up to sequence {}: {} tables, {} value logs", received.size(), r.toSequence(),
                    r.tables().size(), r.valueLogs().size());
            return r.toSequence();
        } catch (IOException e) {
            throw EngineException.io("ingesting deltas from " + staging, e);
        } finally {
            versions.release(current);
        }
    }
}
