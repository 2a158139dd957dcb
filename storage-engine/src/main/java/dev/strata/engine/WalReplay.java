package dev.strata.engine;

import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.memtable.MemTableLoader;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.wal.LogReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Recovery of the writes that were logged but not yet flushed: reads every write-ahead log
 * numbered at or above the manifest's log number, oldest first, into one memtable.
 *
 * <p>With {@link WalRecovery#STRICT}, a torn tail (a crash in the middle of an append) is
 * truncated away, since the write that was being appended never returned. Damage with valid
 * records after it, or a torn log followed by a newer log that holds records, means acknowledged
 * writes would be lost: that is reported as corruption and the engine does not open.
 *
 * <p>With {@link WalRecovery#POINT_IN_TIME}, replay ends at the first damage of any kind and the
 * records after it are dropped with a warning; the logs are not changed, since the flush that
 * follows a replay that was not {@link #clean()} makes every replayed log obsolete.
 */
final class WalReplay {
    private static final Logger LOG = LoggerFactory.getLogger(WalReplay.class);

    private final MemTable memTable;
    private final long lastSequence;
    private final long records;
    private final boolean clean;

    private WalReplay(MemTable memTable, long lastSequence, long records, boolean clean) {
        this.memTable = memTable;
        this.lastSequence = lastSequence;
        this.records = records;
        this.clean = clean;
    }

    /**
     * Whether every log was read to its end without damage or a torn tail: only then may the
     * replayed memtable stay backed by those logs, since a later replay reads them the same way.
     */
    boolean clean() {
        return clean;
    }

    MemTable memTable() {
        return memTable;
    }

    /** The highest sequence replayed, or 0 when none. */
    long lastSequence() {
        return lastSequence;
    }

    long records() {
        return records;
    }

    static WalReplay run(Path dir, long logNumber, long flushedSequence, WalRecovery recovery) throws IOException {
        List<Long> numbers = new ArrayList<>();
        try (var names = Files.list(dir)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                FileNames.Parsed f = FileNames.parse(p.getFileName().toString());
                if (f != null && f.kind() == FileNames.Kind.WAL && f.number() >= logNumber) {
                    numbers.add(f.number());
                }
            }
        }
        numbers.sort(null);
        MemTableLoader mem = new MemTableLoader();
        long last = 0;
        long expectedNext = flushedSequence + 1;
        long count = 0;
        boolean clean = true;
        Path torn = null;
        long tornAt = 0;
        for (long number : numbers) {
            Path path = FileNames.wal(dir, number);
            try (LogReader reader = new LogReader(path)) {
                long recordStart = 0;
                for (byte[] record; (record = reader.next()) != null; recordStart = reader.validLength()) {
                    if (torn != null) {
                        throw new CorruptionException(torn, tornAt, "log ends in a torn record but the newer log "
                                + path.getFileName() + " holds records written after it");
                    }
                    WalRecord.Header h;
                    try {
                        h = WalRecord.decodeHeader(record);
                        if ((h.count() > 0 || h.sharedSequence()) && h.firstSequence() < expectedNext) {
                            throw new ByteReader.MalformedException("sequence " + h.firstSequence()
                                    + " goes back (expected at least " + expectedNext + ")");
                        }
                        WalRecord.applyTo(mem, record, h);
                    } catch (ByteReader.MalformedException e) {
                        throw new CorruptionException(path, recordStart, "log record malformed: " + e.getMessage());
                    }
                    if (h.count() > 0 || h.sharedSequence()) {
                        last = h.lastSequence();
                        expectedNext = last + 1;
                    }
                    count++;
                }
                if (reader.tornTail()) {
                    clean = false;
                    if (recovery == WalRecovery.POINT_IN_TIME) {
                        LOG.warn("log {} has a torn tail at offset {} of {} ({}); replay ends there", path,
                                reader.validLength(), reader.fileSize(), reader.tornTailReason());
                        break;
                    }
                    LOG.warn("log {} has a torn tail at offset {} of {} ({}); truncating the unfinished write",
                            path, reader.validLength(), reader.fileSize(), reader.tornTailReason());
                    truncate(path, reader.validLength());
                    torn = path;
                    tornAt = reader.validLength();
                }
            } catch (CorruptionException e) {
                if (recovery != WalRecovery.POINT_IN_TIME) {
                    throw e;
                }
                clean = false;
                // A record applied to the memtable only after it decoded whole, so the memtable
                // holds exactly the records before the damage.
                LOG.warn("replay of the write-ahead logs ends at damage ({}); the {} records before it are kept "
                        + "and the writes after it come from the log that backs this one", e.getMessage(), count);
                break;
            }
        }
        // Numbered by its oldest log: a memtable kept after the open is backed by every log from there.
        MemTable memTable = mem.build(numbers.isEmpty() ? 0 : numbers.get(0));
        return new WalReplay(memTable, last, count, clean);
    }

    private static void truncate(Path path, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            ch.truncate(length);
            ch.force(true);
        }
    }
}
