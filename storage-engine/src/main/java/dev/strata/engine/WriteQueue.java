package dev.strata.engine;

import dev.strata.engine.compaction.CompactionPicker;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.util.ByteSink;
import dev.strata.engine.util.Directories;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.wal.LogWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write queue: writers wait in line, and the one at the head leads a commit group, writing
 * one log record (one fsync in SYNC mode) and the memtable for everyone in it. The leader also
 * makes room first: it delays or stalls while L0 or the compaction debt is over its limits,
 * and freezes a full memtable for the flush thread.
 */
final class WriteQueue {
    private static final Logger LOG = LoggerFactory.getLogger(WriteQueue.class);
    /** A commit group stops growing at this many bytes so one slow group does not delay later writers too much. */
    private static final int MAX_GROUP_BYTES = 1 << 20;

    private final EngineCore core;
    private final ReentrantLock mutex;
    private final Flushes flushes;
    private final Path dir;
    private final EngineOptions options;
    private final VersionSet versions;
    private final CompactionPicker picker;
    private final Statistics stats;
    // Guarded by the core's mutex.
    private final ArrayDeque<Writer> writers = new ArrayDeque<>();
    /** The write leader's reusable buffer for encoding a group's log record; touched only by the leader. */
    private ByteSink groupRecord = new ByteSink(4096);

    WriteQueue(EngineCore core, Flushes flushes) {
        this.core = core;
        this.flushes = flushes;
        this.dir = core.dir;
        this.options = core.options;
        this.versions = core.versions;
        this.picker = core.picker;
        this.stats = core.stats;
        this.mutex = core.mutex;
    }

    /** A write waiting in the queue (or a memtable switch request when batch is null). */
    private static final class Writer {
        final WriteBatch batch;
        /** The sequence the caller chose for every operation of the batch, or 0 for "assign the next ones". */
        final long sequence;
        final Condition turn;
        boolean done;
        EngineException error;

        Writer(WriteBatch batch, long sequence, Condition turn) {
            this.batch = batch;
            this.sequence = sequence;
            this.turn = turn;
        }
    }

    /** Applies {@code batch} when its turn comes, at {@code sequence} (0: the next ones). */
    void write(WriteBatch batch, long sequence) {
        enqueue(new Writer(batch, sequence, mutex.newCondition()));
    }

    /**
     * Freezes the memtable (if it holds anything) when its turn comes, then waits until every
     * frozen memtable is flushed.
     */
    void flushMemTable() {
        Writer w = new Writer(null, 0, mutex.newCondition());
        mutex.lock();
        try {
            writers.addLast(w);
            while (!w.done && writers.peekFirst() != w) {
                w.turn.awaitUninterruptibly();
            }
            lead(w);
            if (w.error != null) {
                throw w.error;
            }
            while (!core.imms.isEmpty()) {
                core.checkWritable();
                core.awaitBackground(0);
            }
            core.checkWritable();
        } finally {
            mutex.unlock();
        }
    }

    /** Wakes the waiting writers of a closing engine (they fail) until none is left. Mutex held. */
    void drainForClose() {
        while (!writers.isEmpty()) {
            Writer head = writers.peekFirst();
            head.turn.signal();
            core.awaitBackground(1);
        }
    }

    private void enqueue(Writer w) {
        mutex.lock();
        try {
            writers.addLast(w);
            while (!w.done && writers.peekFirst() != w) {
                w.turn.awaitUninterruptibly();
            }
            if (w.done) {
                if (w.error != null) {
                    throw w.error;
                }
                return;
            }
            lead(w);
        } finally {
            mutex.unlock();
        }
        if (w.error != null) {
            throw w.error;
        }
    }

    /**
     * Runs one commit group with {@code leader} at the head of the queue: makes room, writes
     * the log record (one fsync for the group in SYNC mode) and the memtable, then wakes the
     * group's writers and the next leader. Called with mutex held; releases it during I/O.
     */
    private void lead(Writer leader) {
        List<Writer> group = new ArrayList<>();
        EngineException error = null;
        try {
            makeRoomForWrite(leader.batch == null);
            if (leader.batch != null) {
                int bytes = 0;
                int count = 0;
                byte[] marker = null;
                for (Writer w : writers) {
                    // A batch with its own sequence is a group of its own.
                    boolean fits = group.isEmpty() || (w.sequence == 0 && leader.sequence == 0
                            && bytes + w.batch.approximateSizeInBytes() <= MAX_GROUP_BYTES);
                    if (w.batch == null || !fits) {
                        break;
                    }
                    group.add(w);
                    bytes += w.batch.approximateSizeInBytes();
                    count += w.batch.count();
                    if (w.batch.appliedMarker() != null) {
                        marker = w.batch.appliedMarker();
                    }
                }
                boolean shared = leader.sequence != 0;
                if (shared && leader.sequence <= core.lastSequence) {
                    throw new EngineException(EngineException.Code.INVALID_ARGUMENT, "sequence " + leader.sequence
                            + " is not above the last one used, " + core.lastSequence);
                }
                long first = shared ? leader.sequence : core.lastSequence + 1;
                long last = shared ? leader.sequence : core.lastSequence + count;
                core.lastSequence = last;
                MemTable target = core.mem;
                LogWriter log = core.wal;
                mutex.unlock();
                try {
                    error = writeGroup(group, first, count, shared, marker, target, log);
                } finally {
                    mutex.lock();
                }
                if (error == null) {
                    core.visibleSequence = last;
                } else {
                    core.setBackgroundError(error); // the log may hold a partial record: no more writes
                }
            } else {
                group.add(leader);
            }
        } catch (EngineException e) {
            error = e;
            if (group.isEmpty()) {
                group.add(leader);
            }
        }
        for (Writer w : group) {
            Writer head = writers.pollFirst();
            assert head == w;
            w.done = true;
            w.error = error;
            w.turn.signal();
        }
        Writer next = writers.peekFirst();
        if (next != null) {
            next.turn.signal();
        }
    }

    /**
     * Logs and applies one group; returns the error instead of throwing so the caller can finish
     * the group. Only the write leader runs this, so it may reuse {@link #groupRecord}.
     */
    private EngineException writeGroup(List<Writer> group, long first, int count, boolean shared, byte[] marker,
                                       MemTable target, LogWriter log) {
        try {
            if (log != null) {
                ByteSink record = groupRecord;
                record.reset();
                WalRecord.encodeHeader(record, first, count, shared, marker);
                for (Writer w : group) {
                    for (WriteBatch.Op op : w.batch.ops()) {
                        WalRecord.encodeOp(record, op);
                    }
                }
                log.addRecord(record.array(), 0, record.size());
                if (options.walMode() == WalMode.SYNC) {
                    log.sync();
                    stats.walSyncs.increment();
                }
                stats.walBytes.add(record.size());
                if (record.array().length > 4 * MAX_GROUP_BYTES) {
                    groupRecord = new ByteSink(4096); // do not keep a huge buffer after one huge batch
                }
            }
        } catch (IOException e) {
            return EngineException.io("writing log " + log.path(), e);
        }
        long sequence = first;
        for (Writer w : group) {
            WalRecord.insert(target, w.batch.ops(), sequence, shared);
            sequence += w.batch.count();
            if (w.batch.appliedMarker() != null) {
                target.setAppliedMarker(w.batch.appliedMarker());
            }
            stats.userBytes.add(w.batch.userBytes());
        }
        return null;
    }

    /**
     * Called by the write leader with mutex held. Delays or stalls the write while L0 or the
     * compaction debt is over its limits, and freezes the memtable when it is full (or when
     * {@code force} asks for a flush).
     */
    void makeRoomForWrite(boolean force) {
        boolean allowDelay = !force;
        while (true) {
            core.checkWritable();
            Version v = versions.current();
            int level0 = v.files(0).size();
            long pending = picker.pendingCompactionBytes(v);
            if (allowDelay && (level0 >= options.level0SlowdownTrigger() || pending >= options.softPendingCompactionBytes())) {
                // Delay this write by about 1 ms rather than let L0 hit the stop limit and stall
                // writers for seconds: it hands the CPU to compaction and spreads the delay out.
                long start = System.nanoTime();
                core.awaitBackground(1);
                stats.stallSlowdowns.increment();
                stats.stallMicros.add((System.nanoTime() - start) / 1000);
                allowDelay = false;
            } else if (!force && core.mem.approximateBytes() < options.writeBufferSize()) {
                return;
            } else if (force && core.mem.isEmpty() && core.mem.appliedMarker() == null) {
                return; // nothing to flush
            } else if (core.imms.size() >= options.maxImmutableMemtables()) {
                stall("memtables full, waiting for flush");
            } else if (level0 >= options.level0StopTrigger() || pending >= options.hardPendingCompactionBytes()) {
                stall("L0 has " + level0 + " files / " + pending + " bytes pending compaction, waiting for compaction");
            } else {
                switchMemTable();
                return;
            }
        }
    }

    private void stall(String why) {
        long start = System.nanoTime();
        stats.stallStops.increment();
        stats.writesStopped = true;
        LOG.debug("write stall: {}", why);
        core.awaitBackground(0);
        stats.writesStopped = false;
        stats.stallMicros.add((System.nanoTime() - start) / 1000);
    }

    /** Freezes the memtable and starts a new one with a new log. Mutex held, no write in flight. */
    private void switchMemTable() {
        long newWalNumber = core.mem.walNumber(); // without a log the number stays
        LogWriter newWal = null;
        if (options.walMode() != WalMode.DISABLED) {
            newWalNumber = versions.newFileNumber();
            try {
                newWal = LogWriter.create(FileNames.wal(dir, newWalNumber));
                if (options.walMode() == WalMode.SYNC) {
                    Directories.sync(dir); // the new log's name must survive a crash too
                }
                core.wal.close();
            } catch (IOException e) {
                EngineException error = EngineException.io("starting log " + newWalNumber, e);
                core.setBackgroundError(error);
                throw error;
            }
        }
        core.wal = newWal;
        core.imms.add(core.mem);
        core.mem = new MemTable(newWalNumber);
        core.publishMemTables();
        flushes.schedule();
    }

    /** Runs {@code action} with mutex held and the write queue held by this thread. */
    void runExclusive(ExclusiveAction action) {
        Writer w = new Writer(null, 0, mutex.newCondition());
        mutex.lock();
        try {
            writers.addLast(w);
            while (writers.peekFirst() != w) {
                w.turn.awaitUninterruptibly();
            }
            try {
                action.run();
            } finally {
                writers.pollFirst();
                Writer next = writers.peekFirst();
                if (next != null) {
                    next.turn.signal();
                }
            }
        } finally {
            mutex.unlock();
        }
    }

    /** An action run at the head of the write queue: no write runs meanwhile. */
    @FunctionalInterface
    interface ExclusiveAction {
        void run();
    }
}
