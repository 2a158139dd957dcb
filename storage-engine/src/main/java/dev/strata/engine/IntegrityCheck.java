package dev.strata.engine;

import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.ValueLogFile;
import dev.strata.engine.version.Version;
import dev.strata.engine.vlog.ValueLogId;
import dev.strata.engine.vlog.ValuePointer;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;

/** What {@link Engine#verify()} does: reads a whole version back and checks it. */
final class IntegrityCheck {
    private IntegrityCheck() {}

    /**
     * @param resolve reads the value an encoded pointer of a user key points at (checksum and key checked)
     */
    static VerifyReport run(Version v, TableCache tableCache, BiFunction<byte[], byte[], byte[]> resolve) {
        Map<ValueLogId, Long> pointed = new HashMap<>();
        int tables = 0;
        long entries = 0;
        long pointers = 0;
        for (int level = 0; level < v.numLevels(); level++) {
            for (FileMetadata f : v.files(level)) {
                tables++;
                try (InternalIterator it = tableCache.iterator(f)) {
                    for (it.seekToFirst(); it.valid(); it.next()) {
                        entries++;
                        if (InternalKey.typeCodeOf(it.key()) == ValueType.VALUE_POINTER.code()) {
                            ValuePointer p = ValuePointer.decode(it.value());
                            if (!v.valueLogs().containsKey(p.file())) {
                                throw new EngineException(EngineException.Code.CORRUPTION, "table " + f.number()
                                        + " points into value log " + p.file() + " which the manifest does not list");
                            }
                            resolve.apply(InternalKey.userKeyOf(it.key()), it.value());
                            pointed.merge(p.file(), (long) p.length(), Long::sum);
                            pointers++;
                        }
                    }
                }
            }
        }
        long live = 0;
        for (ValueLogFile f : v.valueLogs().values()) {
            long referenced = pointed.getOrDefault(f.metadata().id(), 0L);
            if (referenced != f.liveBytes()) {
                throw new EngineException(EngineException.Code.CORRUPTION, "value log " + f.metadata().id()
                        + ": tables point to " + referenced + " record bytes, the manifest counts " + f.liveBytes() + " live");
            }
            live += referenced;
        }
        return new VerifyReport(tables, entries, v.valueLogs().size(), pointers, live);
    }
}
