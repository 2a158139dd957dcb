package dev.strata.engine;

import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.checkpoint.DeltaLog;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.engine.util.Directories;
import dev.strata.engine.wal.LogWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The incremental chain: the files each flush produced, kept by hard links in
 * {@code <data>/deltas/} (value logs in {@code <valueLogDir>/deltas/}) after compaction has
 * merged them away, with a log {@code DELTAS} of one {@link Delta} record per flush. The
 * intervals are contiguous, so a node at any sequence the chain covers can catch up by ingesting
 * the deltas after it instead of receiving every file.
 *
 * <p>A file costs space only once the engine no longer uses it (its link count drops to one);
 * {@link #enforceBudget} releases the oldest deltas until those unshared bytes fit the budget.
 * Nothing is released while a caller {@link #pin() pins} the chain to stream from it.
 *
 * <p>Crash safety: a flush links its files before its manifest edit and appends its record
 * after, so a crash leaves at worst unreferenced links, removed at open; a record whose files
 * are missing breaks the chain there, and only the part after it is kept. Thread-safe.
 */
public final class DeltaChain {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaChain.class);
    static final String DIR = "deltas";
    static final String LOG_NAME = "DELTAS";

    private final Path tableDir;
    private final Path valueLogDir;
    private final ArrayDeque<Delta> deltas = new ArrayDeque<>();
    private LogWriter log;
    private int pins;

    private DeltaChain(Path dataDir, Path valueLogDir) {
        this.tableDir = dataDir.resolve(DIR);
        this.valueLogDir = valueLogDir.resolve(DIR);
    }

    /** Loads the chain a previous run left, dropping what a crash broke and links nothing refers to. */
    static DeltaChain open(Path dataDir, Path valueLogDir) throws IOException {
        DeltaChain c = new DeltaChain(dataDir, valueLogDir);
        Files.createDirectories(c.tableDir);
        Files.createDirectories(c.valueLogDir);
        Path logFile = c.tableDir.resolve(LOG_NAME);
        List<Delta> loaded = new ArrayList<>();
        if (Files.exists(logFile)) {
            loaded.addAll(DeltaLog.read(logFile));
        }
        for (Delta d : loaded) {
            boolean contiguous = c.deltas.isEmpty() || c.deltas.peekLast().toInclusive() == d.fromExclusive();
            if (!contiguous || !c.filesPresent(d)) {
                LOG.warn("delta chain broken at {}; keeping only what follows", d);
                c.deltas.clear();
                if (!c.filesPresent(d)) {
                    continue;
                }
            }
            c.deltas.addLast(d);
        }
        c.rewriteLog();
        c.deleteUnreferencedLinks();
        return c;
    }

    private boolean filesPresent(Delta d) throws IOException {
        for (CheckpointFile f : d.files()) {
            Path p = path(f);
            if (!Files.exists(p) || Files.size(p) != f.content().size()) {
                return false;
            }
        }
        return true;
    }

    /** Where a file of a retained delta can be read. */
    public Path path(CheckpointFile f) {
        return (f.kind() == CheckpointFile.Kind.TABLE ? tableDir : valueLogDir).resolve(f.name());
    }

    /**
     * Links a flush's (or ingest's) output files into the chain's directories. Call before the
     * manifest edit that adds them, while they cannot be compacted away yet.
     */
    void linkFiles(Path dataDir, Path engineValueLogDir, Delta d) throws IOException {
        for (CheckpointFile f : d.files()) {
            Path engineFile = (f.kind() == CheckpointFile.Kind.TABLE ? dataDir : engineValueLogDir).resolve(f.name());
            FileLinks.link(engineFile, path(f));
        }
        Directories.sync(tableDir);
        if (!valueLogDir.equals(tableDir)) {
            Directories.sync(valueLogDir);
        }
    }

    /**
     * Records a delta whose files {@link #linkFiles} linked, after its manifest edit. A delta that
     * does not start where the chain ends starts a new chain (the old one cannot be continued).
     */
    synchronized void append(Delta d) throws IOException {
        if (!deltas.isEmpty() && deltas.peekLast().toInclusive() != d.fromExclusive()) {
            LOG.info("delta {} does not continue the chain ending at {}; starting a new chain", d, end());
            dropAll();
        }
        deltas.addLast(d);
        log.addRecord(d.encode());
        log.sync();
    }

    /** The sequence the newest delta reaches, or -1 for an empty chain. */
    public synchronized long end() {
        return deltas.isEmpty() ? -1 : deltas.peekLast().toInclusive();
    }

    /** The sequence the chain starts after, or -1 for an empty chain. */
    public synchronized long start() {
        return deltas.isEmpty() ? -1 : deltas.peekFirst().fromExclusive();
    }

    /**
     * The deltas that take a node holding every write up to {@code sequence} to at least
     * {@code upTo}: from the one containing {@code sequence + 1} through the first reaching
     * {@code upTo}. Empty when nothing is needed; null when the chain does not cover that span.
     */
    public synchronized List<Delta> covering(long sequence, long upTo) {
        if (sequence >= upTo) {
            return List.of();
        }
        List<Delta> out = new ArrayList<>();
        for (Delta d : deltas) {
            if (out.isEmpty() && !(d.fromExclusive() <= sequence && sequence < d.toInclusive())) {
                continue;
            }
            out.add(d);
            if (d.toInclusive() >= upTo) {
                return out;
            }
        }
        return null;
    }

    /** Keeps every retained delta until {@link #unpin()}, for a caller streaming their files. */
    public synchronized void pin() {
        pins++;
    }

    public synchronized void unpin() {
        if (pins == 0) {
            throw new IllegalStateException("unpinned more often than pinned");
        }
        pins--;
    }

    /** Bytes of retained files the engine no longer uses: what the chain costs on disk. */
    synchronized long unsharedBytes() throws IOException {
        long total = 0;
        Set<Path> seen = new HashSet<>();
        for (Delta d : deltas) {
            for (CheckpointFile f : d.files()) {
                Path p = path(f);
                if (seen.add(p) && FileLinks.linkCount(p) == 1) {
                    total += f.content().size();
                }
            }
        }
        return total;
    }

    /** Releases the oldest deltas until the unshared bytes fit {@code budgetBytes}; nothing while pinned. */
    synchronized void enforceBudget(long budgetBytes) throws IOException {
        boolean changed = false;
        while (pins == 0 && !deltas.isEmpty() && unsharedBytes() > budgetBytes) {
            Delta oldest = deltas.pollFirst();
            for (CheckpointFile f : oldest.files()) {
                Files.deleteIfExists(path(f));
            }
            changed = true;
        }
        if (changed) {
            rewriteLog();
        }
    }

    /** Forgets every delta (after the engine's state was replaced by a checkpoint's). */
    synchronized void clear() throws IOException {
        dropAll();
    }

    /** Retained deltas, oldest first. */
    public synchronized List<Delta> all() {
        return new ArrayList<>(deltas);
    }

    private void dropAll() throws IOException {
        deltas.clear();
        rewriteLog();
        deleteUnreferencedLinks();
    }

    /** Writes the log anew holding the retained deltas, then switches to it atomically. */
    private void rewriteLog() throws IOException {
        Path tmp = tableDir.resolve(LOG_NAME + ".tmp");
        Files.deleteIfExists(tmp);
        LogWriter fresh = LogWriter.create(tmp);
        for (Delta d : deltas) {
            fresh.addRecord(d.encode());
        }
        fresh.sync();
        Files.move(tmp, tableDir.resolve(LOG_NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.sync(tableDir);
        if (log != null) {
            log.close();
        }
        log = fresh; // its channel follows the rename
    }

    private void deleteUnreferencedLinks() throws IOException {
        Set<Path> referenced = new HashSet<>();
        referenced.add(tableDir.resolve(LOG_NAME));
        for (Delta d : deltas) {
            for (CheckpointFile f : d.files()) {
                referenced.add(path(f));
            }
        }
        for (Path dir : valueLogDir.equals(tableDir) ? List.of(tableDir) : List.of(tableDir, valueLogDir)) {
            try (var names = Files.list(dir)) {
                for (Path p : (Iterable<Path>) names::iterator) {
                    if (!referenced.contains(p)) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }

    synchronized void close() throws IOException {
        if (log != null) {
            log.close();
            log = null;
        }
    }
}
