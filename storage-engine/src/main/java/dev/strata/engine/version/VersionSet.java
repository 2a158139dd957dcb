package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.EngineException;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.wal.LogWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The coordinator of the on-disk tree (LevelDB's {@code version_set}): the current
 * {@link Version}, the manifest that logs every change to it, the file number counter, the
 * durable sequence and applied marker, the database's origin id, and the set of versions still
 * in use.
 *
 * <p>Commit protocol: {@link #logAndApply} appends the edit to the manifest and fsyncs it
 * before installing the new version, so a crash leaves either the old or the new state. A new
 * manifest (at open, and when the current one outgrows its limit) is written whole, fsynced,
 * and published by writing {@code CURRENT} to a temporary file, fsyncing it, renaming it over
 * {@code CURRENT} and fsyncing the directory.
 *
 * <p>Value-log files: an edit that brings a file's garbage up to all of its record bytes also
 * removes it from the version (the logged edit says so), so a file with nothing live never
 * lingers; it is deleted from disk once no live version lists it.
 *
 * <p>Thread-safe: {@link #logAndApply} is serialized; {@link #current} may be read anytime.
 */
public final class VersionSet implements AutoCloseable {

    private final Path dir;
    private final Path valueLogDir;
    private final int numLevels;
    private final long maxManifestSize;
    private final Set<Version> live = ConcurrentHashMap.newKeySet();
    private final Set<Long> pendingOutputs = ConcurrentHashMap.newKeySet();
    /** Value logs of other databases being moved in (ingest), protected like our pending outputs. */
    private final Set<ValueLogId> pendingIngests = ConcurrentHashMap.newKeySet();
    private volatile Runnable onVersionReleased = () -> {};

    private volatile Version current;
    private long nextFileNumber;
    private long logNumber;
    private long lastSequence;
    private byte[] appliedMarker;
    private long origin;
    private long manifestNumber;
    private LogWriter manifest;

    private VersionSet(Path dir, Path valueLogDir, int numLevels, long maxManifestSize) {
        this.dir = dir;
        this.valueLogDir = valueLogDir;
        this.numLevels = numLevels;
        this.maxManifestSize = maxManifestSize;
    }

    /**
     * Opens the tree in {@code dir}: replays the manifest named by {@code CURRENT}, or creates an
     * empty tree (with a new origin id) when the directory holds no engine files; then starts a
     * fresh manifest.
     *
     * @param valueLogDir where value-log files live (may be {@code dir})
     * @throws CorruptionException when the manifest is damaged or describes an impossible tree
     */
    public static VersionSet open(Path dir, Path valueLogDir, int numLevels, long maxManifestSize) throws IOException {
        VersionSet vs = new VersionSet(dir, valueLogDir, numLevels, maxManifestSize);
        VersionBuilder files;
        if (Files.exists(dir.resolve(FileNames.CURRENT))) {
            ManifestReplay replay = ManifestReplay.of(dir, valueLogDir, numLevels);
            files = replay.files;
            vs.manifestNumber = replay.manifestNumber;
            vs.nextFileNumber = replay.nextFileNumber;
            vs.logNumber = replay.logNumber;
            vs.lastSequence = replay.lastSequence;
            vs.appliedMarker = replay.appliedMarker;
            vs.origin = replay.origin;
        } else {
            vs.refuseWithoutCurrent();
            files = VersionBuilder.empty(numLevels);
            vs.nextFileNumber = 1;
            vs.origin = newOrigin();
        }
        vs.skipNumbersInUse();
        vs.install(vs.newVersion(files));
        vs.writeNewManifest();
        return vs;
    }

    /** A random, non-zero id for a new database. */
    private static long newOrigin() {
        long o;
        do {
            o = new SecureRandom().nextLong();
        } while (o == 0);
        return o;
    }

    /**
     * A crash can leave files (an unfinished table, a log) numbered at or past the last logged
     * next-file-number; never hand those numbers out again.
     */
    private void skipNumbersInUse() throws IOException {
        try (var names = Files.list(dir)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                FileNames.Parsed parsed = FileNames.parse(p.getFileName().toString());
                if (parsed != null) {
                    nextFileNumber = Math.max(nextFileNumber, parsed.number() + 1);
                }
            }
        }
        try (var names = Files.list(valueLogDir)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                ValueLogId id = ValueLogId.parse(p.getFileName().toString());
                if (id != null && id.origin() == origin) {
                    nextFileNumber = Math.max(nextFileNumber, id.number() + 1);
                }
            }
        }
    }

    private void refuseWithoutCurrent() throws IOException {
        try (var names = Files.list(dir)) {
            for (Path p : (Iterable<Path>) names::iterator) {
                FileNames.Parsed parsed = FileNames.parse(p.getFileName().toString());
                if (parsed != null && (parsed.kind() == FileNames.Kind.TABLE || parsed.kind() == FileNames.Kind.MANIFEST
                        || parsed.kind() == FileNames.Kind.WAL)) {
                    throw new CorruptionException(dir.resolve(FileNames.CURRENT), 0,
                            "CURRENT is missing but the directory holds engine files such as " + p.getFileName());
                }
            }
        }
    }

    private Version newVersion(VersionBuilder files) {
        return new Version(files.levels, files.valueLogs, released -> {
            live.remove(released);
            onVersionReleased.run();
        });
    }

    private void install(Version v) {
        live.add(v);
        Version old = current;
        current = v;
        if (old != null) {
            release(old);
        }
    }

    /** Runs {@code listener} whenever a version that is no longer current loses its last reference (its files may now be obsolete). */
    public void onVersionReleased(Runnable listener) {
        this.onVersionReleased = listener;
    }

    /** Drops a reference taken with {@link #acquireCurrent()} (or the set's own on the old current). */
    public void release(Version v) {
        v.unref();
    }

    /** The current version with a reference taken; {@link #release} it when done. */
    public Version acquireCurrent() {
        while (true) {
            Version v = current;
            if (v.tryRef()) {
                return v;
            }
        }
    }

    /** A version with the sequence and applied marker durable in exactly its files. */
    public record Durable(Version version, long lastSequence, byte[] appliedMarker, long origin) {}

    /**
     * The current version, referenced (release it), with the sequence and marker that belong to
     * it: read together under the lock every edit is applied under, so they match.
     */
    public synchronized Durable acquireDurable() {
        return new Durable(acquireCurrent(), lastSequence, appliedMarker, origin);
    }

    /** The current version, without a reference: for a glance at its shape, not for reading files. */
    public Version current() {
        return current;
    }

    public synchronized long newFileNumber() {
        return nextFileNumber++;
    }

    /**
     * A new file number for a flush or compaction output (table or value log); the file is
     * protected from obsolete-file deletion until an applied edit adds it (or
     * {@link #releasePendingOutput} when it is abandoned).
     */
    public synchronized long newPendingOutput() {
        long n = nextFileNumber++;
        pendingOutputs.add(n);
        return n;
    }

    public void releasePendingOutput(long number) {
        pendingOutputs.remove(number);
    }

    /**
     * Protects a value log of another database from obsolete-file deletion while it is moved in
     * and until the edit that adds it is applied (or {@link #releaseIngestedValueLog} on failure).
     */
    public void protectIngestedValueLog(ValueLogId id) {
        pendingIngests.add(id);
    }

    public void releaseIngestedValueLog(ValueLogId id) {
        pendingIngests.remove(id);
    }

    /** This database's id; it names the value-log files it writes. */
    public synchronized long origin() {
        return origin;
    }

    public synchronized long logNumber() {
        return logNumber;
    }

    public synchronized long lastSequence() {
        return lastSequence;
    }

    public synchronized byte[] appliedMarker() {
        return appliedMarker;
    }

    public synchronized long manifestNumber() {
        return manifestNumber;
    }

    /**
     * What obsolete-file deletion must keep: every table and value log a live version lists, and
     * the outputs and ingests being written. Read under the lock edits are applied under, so no
     * version can be installed while the live versions are walked; one released meanwhile only
     * makes its own files obsolete, which is correct.
     */
    public synchronized LiveFiles liveFiles() {
        Set<Long> tables = new HashSet<>(pendingOutputs);
        Set<ValueLogId> logs = new HashSet<>(pendingIngests);
        for (long n : pendingOutputs) {
            logs.add(new ValueLogId(origin, n));
        }
        for (Version v : live) {
            for (int l = 0; l < v.numLevels(); l++) {
                for (FileMetadata f : v.files(l)) {
                    tables.add(f.number());
                }
            }
            logs.addAll(v.valueLogs().keySet());
        }
        return new LiveFiles(tables, logs);
    }

    /** The files some live version lists or a job is writing: everything that must not be deleted. */
    public record LiveFiles(Set<Long> tables, Set<ValueLogId> valueLogs) {
        public boolean isTableLive(long number) {
            return tables.contains(number);
        }

        public boolean isValueLogLive(ValueLogId id) {
            return valueLogs.contains(id);
        }
    }

    /**
     * Applies {@code edit} to the current version, logs it durably and installs the result.
     *
     * @throws EngineException when the manifest cannot be written: the edit is then not applied,
     *         and the next call starts a new manifest
     */
    public synchronized void logAndApply(VersionEdit edit) {
        VersionBuilder files = VersionBuilder.of(current);
        List<ValueLogId> emptied = files.apply(edit);
        files.checkConsistency(FileNames.manifest(dir, manifestNumber));

        VersionEdit.Builder logged = VersionEdit.builder().nextFileNumber(nextFileNumber);
        if (edit.logNumber() != null) {
            logged.logNumber(edit.logNumber());
        }
        if (edit.lastSequence() != null) {
            logged.lastSequence(edit.lastSequence());
        }
        if (edit.appliedMarker() != null) {
            logged.appliedMarker(edit.appliedMarker());
        }
        edit.deletedFiles().forEach(d -> logged.deleteFile(d.level(), d.number()));
        edit.newFiles().forEach(n -> logged.addFile(n.level(), n.file()));
        edit.newValueLogs().forEach(logged::addValueLog);
        edit.valueLogGarbage().forEach(g -> logged.addGarbage(g.file(), g.bytes()));
        edit.deletedValueLogs().forEach(logged::deleteValueLog);
        emptied.forEach(logged::deleteValueLog);
        try {
            if (manifest == null || manifest.size() >= maxManifestSize) {
                applyScalars(edit);
                writeNewManifest(files);
            } else {
                manifest.addRecord(logged.build().encode());
                manifest.sync();
                applyScalars(edit);
            }
        } catch (IOException e) {
            closeManifestQuietly(e);
            throw EngineException.io("writing manifest " + FileNames.manifest(dir, manifestNumber), e);
        }
        install(newVersion(files));
        edit.newFiles().forEach(n -> pendingOutputs.remove(n.file().number()));
        for (ValueLogFileMetadata m : edit.newValueLogs()) {
            // A value log from another database (ingested) carries that database's number, which
            // may equal one of ours still being written: only our own numbers were pending.
            if (m.id().origin() == origin) {
                pendingOutputs.remove(m.id().number());
            } else {
                pendingIngests.remove(m.id());
            }
        }
    }

    private void applyScalars(VersionEdit edit) {
        if (edit.logNumber() != null) {
            logNumber = edit.logNumber();
        }
        if (edit.lastSequence() != null) {
            lastSequence = edit.lastSequence();
        }
        if (edit.appliedMarker() != null) {
            appliedMarker = edit.appliedMarker();
        }
    }

    private void closeManifestQuietly(IOException cause) {
        if (manifest != null) {
            try {
                manifest.close();
            } catch (IOException e) {
                cause.addSuppressed(e);
            }
            manifest = null; // the next edit starts a new manifest rather than append after a failed write
        }
    }

    private void writeNewManifest() throws IOException {
        writeNewManifest(VersionBuilder.of(current));
    }

    /** Writes a manifest holding the whole state as one edit and points CURRENT at it. */
    private void writeNewManifest(VersionBuilder files) throws IOException {
        long number = nextFileNumber++;
        VersionEdit.Builder snapshot = VersionEdit.builder().nextFileNumber(nextFileNumber).logNumber(logNumber)
                .lastSequence(lastSequence).origin(origin);
        if (appliedMarker != null) {
            snapshot.appliedMarker(appliedMarker);
        }
        files.addAllTo(snapshot);
        Path path = FileNames.manifest(dir, number);
        LogWriter writer = LogWriter.create(path);
        try {
            writer.addRecord(snapshot.build().encode());
            writer.sync();
            setCurrent(number);
        } catch (IOException | RuntimeException e) {
            writer.close();
            Files.deleteIfExists(path);
            throw e;
        }
        LogWriter old = manifest;
        manifest = writer;
        manifestNumber = number;
        if (old != null) {
            old.close();
        }
    }

    /**
     * Writes the first manifest of a database seeded from a checkpoint's files (already in
     * place): the checkpoint's tables, value logs and garbage, sequence and marker, a new origin,
     * and file numbers starting at {@code nextFileNumber}.
     */
    public static void writeInitialManifest(Path dir, List<VersionEdit.NewFile> tables, List<ValueLogFile> valueLogs,
                                            long lastSequence, byte[] appliedMarker, long nextFileNumber)
            throws IOException {
        long manifestNumber = nextFileNumber;
        VersionEdit.Builder edit = VersionEdit.builder().nextFileNumber(manifestNumber + 2).logNumber(0)
                .lastSequence(lastSequence).origin(newOrigin());
        if (appliedMarker != null) {
            edit.appliedMarker(appliedMarker);
        }
        tables.forEach(t -> edit.addFile(t.level(), t.file()));
        for (ValueLogFile v : valueLogs) {
            edit.addValueLog(v.metadata());
            if (v.garbageBytes() > 0) {
                edit.addGarbage(v.metadata().id(), v.garbageBytes());
            }
        }
        try (LogWriter w = LogWriter.create(FileNames.manifest(dir, manifestNumber))) {
            w.addRecord(edit.build().encode());
            w.sync();
        }
        CurrentFile.publish(dir, manifestNumber, manifestNumber + 1);
    }

    private void setCurrent(long manifest) throws IOException {
        CurrentFile.publish(dir, manifest, newFileNumber());
    }

    @Override
    public synchronized void close() throws IOException {
        if (manifest != null) {
            manifest.close();
            manifest = null;
        }
    }
}
