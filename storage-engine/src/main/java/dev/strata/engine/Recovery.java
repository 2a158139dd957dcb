package dev.strata.engine;

import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.util.Directories;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.wal.LogWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/** An open's recovery: replays the write-ahead logs the manifest does not cover and starts a new log. */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);
    private final EngineCore core;
    private final ReentrantLock mutex;
    private final Flushes flushes;
    private final DeltaKeeper deltaKeeper;
    private final Compactions compactions;
    private final Path dir;
    private final EngineOptions options;
    private final VersionSet versions;
    private final ObsoleteFiles obsoleteFiles;

    Recovery(EngineCore core, Flushes flushes, DeltaKeeper deltaKeeper, Compactions compactions) {
        this.core = core;
        this.flushes = flushes;
        this.deltaKeeper = deltaKeeper;
        this.compactions = compactions;
        this.dir = core.dir;
        this.options = core.options;
        this.versions = core.versions;
        this.obsoleteFiles = core.obsoleteFiles;
        this.mutex = core.mutex;
    }

    /**
     * Replays the logs newer than the manifest's log number into a memtable, then starts a fresh
     * log. The replayed memtable is flushed as an L0 table, or, with
     * {@link EngineOptions#flushAfterRecovery()} off and a clean replay, kept as the active
     * memtable: the manifest's log number stays, so the replayed logs stay live until its flush.
     */
    void run() throws IOException {
        WalReplay replay = WalReplay.run(dir, versions.logNumber(), versions.lastSequence(), options.walRecovery());
        core.lastSequence = Math.max(versions.lastSequence(), replay.lastSequence());
        core.visibleSequence = core.lastSequence;
        MemTable recovered = replay.memTable();
        boolean keep = !recovered.isEmpty() && !options.flushAfterRecovery() && replay.clean()
                && options.walMode() != WalMode.DISABLED;

        // Without a log the number is never a file's, but moving the log number past every
        // replayed log still lets them be deleted.
        long newWal = versions.newFileNumber();
        if (options.walMode() != WalMode.DISABLED) {
            core.wal = LogWriter.create(FileNames.wal(dir, newWal));
            Directories.sync(dir);
        }
        if (keep) {
            core.mem = recovered;
        } else {
            flushRecovered(recovered, newWal);
            core.mem = new MemTable(newWal);
        }
        core.publishMemTables();
        obsoleteFiles.delete();
        LOG.info("opened {}: {} (replayed {} log records{}, last sequence {})", dir, versions.current(),
                replay.records(), keep ? ", kept in the memtable" : "", core.lastSequence);
        mutex.lock();
        try {
            compactions.scheduleAfterFlushes(); // the open's flush of the replayed log may have been provisional
        } finally {
            mutex.unlock();
        }
    }

    /** Writes the replayed memtable as an L0 table (if it holds anything) and moves the log number to {@code newWal}. */
    private void flushRecovered(MemTable recovered, long newWal) throws IOException {
        long coveredBefore = versions.lastSequence();
        VersionEdit.Builder edit = VersionEdit.builder().logNumber(newWal).lastSequence(core.lastSequence);
        if (!recovered.isEmpty()) {
            Version base = versions.acquireCurrent();
            try {
                try (InternalIterator entries = recovered.iterator()) {
                    // Everything waits for the open: an adaptive policy's faster codec, if it has one.
                    flushes.writeLevel0(entries, base, core.lastSequence, edit, true);
                }
            } finally {
                versions.release(base);
            }
            core.syncOutputDirectories();
        }
        if (recovered.appliedMarker() != null) {
            edit.appliedMarker(recovered.appliedMarker());
        }
        deltaKeeper.commit(edit.build(), coveredBefore);
    }
}
