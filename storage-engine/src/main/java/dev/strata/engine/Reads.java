package dev.strata.engine;

import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.iterator.MergingIterator;
import dev.strata.engine.key.Lookup;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.LevelIterator;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.vlog.ValueLogs;
import dev.strata.engine.vlog.ValuePointer;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The read path: a point lookup or a scan at a sequence, over the memtables and then the tables
 * of the current version, with separated values read from the value logs.
 */
final class Reads {
    private final EngineCore core;
    private final VersionSet versions;
    private final TableCache tableCache;
    private final ValueLogs valueLogs;

    Reads(EngineCore core) {
        this.core = core;
        this.versions = core.versions;
        this.tableCache = core.tableCache;
        this.valueLogs = core.valueLogs;
    }

    /** The value of {@code key} as of {@code sequence}, or null when absent. */
    byte[] get(byte[] key, long sequence) {
        MemTables view = core.memtables;
        Lookup r = view.mem().get(key, sequence);
        for (int i = 0; !r.isDecided() && i < view.immsNewestFirst().size(); i++) {
            r = view.immsNewestFirst().get(i).get(key, sequence);
        }
        if (!r.isDecided()) {
            // The version is taken after the memtables: a memtable leaves the view only after
            // its table is in the current version, so nothing can fall between the two.
            Version v = versions.acquireCurrent();
            try {
                r = v.get(key, sequence, tableCache);
                if (r.state() == Lookup.State.FOUND_POINTER) {
                    return resolve(key, r.value()); // while v pins the value log
                }
            } finally {
                versions.release(v);
            }
        }
        return r.state() == Lookup.State.FOUND ? r.value().clone() : null;
    }

    /** The value a pointer entry for {@code userKey} points at. */
    byte[] resolve(byte[] userKey, byte[] encodedPointer) {
        ValuePointer p;
        try {
            p = ValuePointer.decode(encodedPointer);
        } catch (ByteReader.MalformedException e) {
            throw new EngineException(EngineException.Code.CORRUPTION, "value pointer for key "
                    + HexFormat.of().formatHex(userKey) + " is malformed: " + e.getMessage());
        }
        return valueLogs.read(p, userKey);
    }

    /** The keys in {@code [from, to)} as of {@code sequence}; the iterator pins the version until closed. */
    KeyValueIterator scan(byte[] from, byte[] to, long sequence) {
        MemTables view = core.memtables;
        Version v = versions.acquireCurrent();
        try {
            List<InternalIterator> children = new ArrayList<>();
            children.add(view.mem().iterator());
            view.immsNewestFirst().forEach(m -> children.add(m.iterator()));
            for (FileMetadata f : v.files(0)) {
                if (f.overlaps(from, to)) {
                    children.add(tableCache.iterator(f));
                }
            }
            for (int level = 1; level < v.numLevels(); level++) {
                List<FileMetadata> files = v.overlapping(level, from, to);
                if (!files.isEmpty()) {
                    children.add(new LevelIterator(files, tableCache));
                }
            }
            return new DbIterator(new MergingIterator(children), sequence, from, to, this::resolve,
                    () -> versions.release(v));
        } catch (RuntimeException e) {
            versions.release(v);
            throw e;
        }
    }
}
