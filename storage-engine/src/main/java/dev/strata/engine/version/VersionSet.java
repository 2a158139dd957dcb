package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.EngineException;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.wal.LogReader;
import dev.strata.engine.wal.LogWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
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
    private static final Logger LOG = LoggerFactory.getLogger(VersionSet.class);

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

    /** The state a manifest describes, rebuilt edit by edit. */
    private static final class State {
        final List<List<FileMetadata>> levels;
        final SortedMap<ValueLogId, ValueLogFile> valueLogs;

        State(List<List<FileMetadata>> levels, SortedMap<ValueLogId, ValueLogFile> valueLogs) {
            this.levels = levels;
            this.valueLogs = valueLogs;
        }

        static State empty(int numLevels) {
            List<List<FileMetadata>> levels = new ArrayList<>(numLevels);
            for (int i = 0; i < numLevels; i++) {
                levels.add(new ArrayList<>());
            }
            return new State(levels, new TreeMap<>());
        }

        static State of(Version v) {
            List<List<FileMetadata>> levels = new ArrayList<>(v.numLevels());
            for (int l = 0; l < v.numLevels(); l++) {
                levels.add(new ArrayList<>(v.files(l)));
            }
            return new State(levels, new TreeMap<>(v.valueLogs()));
        }

        /**
         * Applies an edit; returns the value-log files it left with nothing live (already removed).
         *
         * @throws IllegalStateException when the edit does not fit the state
         */
        List<ValueLogId> apply(VersionEdit edit) {
            for (VersionEdit.LevelFile d : edit.deletedFiles()) {
                if (d.level() < 0 || d.level() >= levels.size()
                        || !levels.get(d.level()).removeIf(f -> f.number() == d.number())) {
                    throw new IllegalStateException("edit deletes table " + d.number() + " absent from L" + d.level());
                }
            }
            for (VersionEdit.NewFile n : edit.newFiles()) {
                if (n.level() < 0 || n.level() >= levels.size()) {
                    throw new IllegalStateException("table at level " + n.level() + " of " + levels.size());
                }
                levels.get(n.level()).add(n.file());
            }
            for (ValueLogFileMetadata m : edit.newValueLogs()) {
                valueLogs.put(m.id(), new ValueLogFile(m, 0));
            }
            List<ValueLogId> emptied = new ArrayList<>();
            for (VersionEdit.Garbage g : edit.valueLogGarbage()) {
                ValueLogFile f = valueLogs.get(g.file());
                if (f == null) {
                    throw new IllegalStateException("garbage for value log " + g.file() + " which is not live");
                }
                ValueLogFile updated = f.plusGarbage(g.bytes());
                if (updated.garbageBytes() > updated.metadata().recordBytes()) {
                    throw new IllegalStateException("value log " + g.file() + " would hold " + updated.garbageBytes()
                            + " garbage bytes of " + updated.metadata().recordBytes());
                }
                valueLogs.put(g.file(), updated);
            }
            for (ValueLogId id : edit.deletedValueLogs()) {
                if (valueLogs.remove(id) == null) {
                    throw new IllegalStateException("edit deletes value log " + id + " which is not live");
                }
            }
            for (ValueLogFile f : List.copyOf(valueLogs.values())) {
                if (f.garbageBytes() == f.metadata().recordBytes()) {
                    valueLogs.remove(f.metadata().id());
                    emptied.add(f.metadata().id());
                }
            }
            levels.get(0).sort(Version.NEWEST_FIRST);
            for (int l = 1; l < levels.size(); l++) {
                levels.get(l).sort(Version.BY_SMALLEST_KEY);
            }
            return emptied;
        }
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
        Path currentFile = dir.resolve(FileNames.CURRENT);
        State state;
        if (Files.exists(currentFile)) {
            state = vs.recover(currentFile);
        } else {
            vs.refuseWithoutCurrent();
            state = State.empty(numLevels);
            vs.nextFileNumber = 1;
            vs.origin = newOrigin();
        }
        vs.skipNumbersInUse();
        vs.install(vs.newVersion(state));
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

    private State recover(Path currentFile) throws IOException {
        String name = Files.readString(currentFile, StandardCharsets.UTF_8);
        FileNames.Parsed parsed = name.endsWith("\n") ? FileNames.parse(name.substring(0, name.length() - 1)) : null;
        if (parsed == null || parsed.kind() != FileNames.Kind.MANIFEST) {
            throw new CorruptionException(currentFile, 0, "CURRENT does not name a manifest: '" + name.strip() + "'");
        }
        Path manifestPath = FileNames.manifest(dir, parsed.number());
        State state = State.empty(numLevels);
        boolean sawNextFile = false;
        try (LogReader reader = new LogReader(manifestPath)) {
            long recordStart = 0;
            for (byte[] record; (record = reader.next()) != null; recordStart = reader.validLength()) {
                VersionEdit edit;
                try {
                    edit = VersionEdit.decode(record);
                    state.apply(edit);
                } catch (ByteReader.MalformedException e) {
                    throw new CorruptionException(manifestPath, recordStart, "version edit malformed: " + e.getMessage());
                } catch (IllegalStateException e) {
                    throw new CorruptionException(manifestPath, recordStart, "version edit does not apply: " + e.getMessage());
                }
                if (edit.logNumber() != null) {
                    logNumber = edit.logNumber();
                }
                if (edit.nextFileNumber() != null) {
                    nextFileNumber = edit.nextFileNumber();
                    sawNextFile = true;
                }
                if (edit.lastSequence() != null) {
                    lastSequence = edit.lastSequence();
                }
                if (edit.appliedMarker() != null) {
                    appliedMarker = edit.appliedMarker();
                }
                if (edit.origin() != null) {
                    origin = edit.origin();
                }
            }
            if (reader.tornTail()) {
                LOG.warn("manifest {} has a torn tail at offset {} ({}); the edit being written at the crash is ignored",
                        manifestPath, reader.validLength(), reader.tornTailReason());
            }
        } catch (NoSuchFileException e) {
            throw new CorruptionException(manifestPath, 0, "the manifest CURRENT names does not exist");
        }
        if (!sawNextFile) {
            throw new CorruptionException(manifestPath, 0, "manifest has no next-file-number record");
        }
        if (origin == 0) {
            throw new CorruptionException(manifestPath, 0, "manifest has no origin id");
        }
        manifestNumber = parsed.number();
        nextFileNumber = Math.max(nextFileNumber, manifestNumber + 1);
        checkConsistency(state.levels, manifestPath);
        checkFilesPresent(state);
        return state;
    }

    /** Files of L1 and deeper must not overlap: a violation means the tree would return wrong data. */
    private static void checkConsistency(List<List<FileMetadata>> levels, Path source) {
        for (int l = 1; l < levels.size(); l++) {
            List<FileMetadata> files = levels.get(l);
            for (int i = 1; i < files.size(); i++) {
                if (InternalKey.compareUserKeys(files.get(i - 1).largest(), files.get(i).smallest()) >= 0) {
                    throw new CorruptionException(source, 0, "files " + files.get(i - 1) + " and " + files.get(i)
                            + " overlap in L" + l);
                }
            }
        }
    }

    /** Every file the manifest lists must exist at its recorded size, or reads would fail later and further from the cause. */
    private void checkFilesPresent(State state) throws IOException {
        for (List<FileMetadata> level : state.levels) {
            for (FileMetadata f : level) {
                checkSize(FileNames.table(dir, f.number()), f.fileSize(), "table");
            }
        }
        for (ValueLogFile f : state.valueLogs.values()) {
            checkSize(f.metadata().id().path(valueLogDir), f.metadata().fileSize(), "value log");
        }
    }

    private static void checkSize(Path p, long expected, String kind) throws IOException {
        if (!Files.exists(p)) {
            throw new CorruptionException(p, 0, kind + " listed in the manifest is missing");
        }
        long size = Files.size(p);
        if (size != expected) {
            throw new CorruptionException(p, Math.min(size, expected), kind + " is " + size + " bytes, the manifest says " + expected);
        }
    }

    private Version newVersion(State state) {
        return new Version(state.levels, state.valueLogs, released -> {
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
        State state = State.of(current);
        List<ValueLogId> emptied = state.apply(edit);
        checkConsistency(state.levels, FileNames.manifest(dir, manifestNumber));

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
                writeNewManifest(state);
            } else {
                manifest.addRecord(logged.build().encode());
                manifest.sync();
                applyScalars(edit);
            }
        } catch (IOException e) {
            closeManifestQuietly(e);
            throw EngineException.io("writing manifest " + FileNames.manifest(dir, manifestNumber), e);
        }
        install(newVersion(state));
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
        writeNewManifest(State.of(current));
    }

    /** Writes a manifest holding the whole state as one edit and points CURRENT at it. */
    private void writeNewManifest(State state) throws IOException {
        long number = nextFileNumber++;
        VersionEdit.Builder snapshot = VersionEdit.builder().nextFileNumber(nextFileNumber).logNumber(logNumber)
                .lastSequence(lastSequence).origin(origin);
        if (appliedMarker != null) {
            snapshot.appliedMarker(appliedMarker);
        }
        for (int l = 0; l < state.levels.size(); l++) {
            for (FileMetadata f : state.levels.get(l)) {
                snapshot.addFile(l, f);
            }
        }
        for (Map.Entry<ValueLogId, ValueLogFile> e : state.valueLogs.entrySet()) {
            snapshot.addValueLog(e.getValue().metadata());
            if (e.getValue().garbageBytes() > 0) {
                snapshot.addGarbage(e.getKey(), e.getValue().garbageBytes());
            }
        }
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
        publishCurrent(dir, manifestNumber, manifestNumber + 1);
    }

    private void setCurrent(long manifest) throws IOException {
        publishCurrent(dir, manifest, newFileNumber());
    }

    /** Points CURRENT at a manifest: write a temporary file, fsync, rename, fsync the directory. */
    private static void publishCurrent(Path dir, long manifest, long tempNumber) throws IOException {
        Path tmp = FileNames.temp(dir, tempNumber);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap((FileNames.manifest(dir, manifest).getFileName() + "\n")
                    .getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(FileNames.CURRENT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(dir);
    }

    /** Makes renames and creations in {@code dir} durable. */
    public static void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (manifest != null) {
            manifest.close();
            manifest = null;
        }
    }
}
