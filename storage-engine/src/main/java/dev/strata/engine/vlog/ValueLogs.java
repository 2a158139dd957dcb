package dev.strata.engine.vlog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.strata.engine.EngineException;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The value-log files of one engine as seen by readers: open readers bounded in number, like
 * the table cache, and the directory the files live in (possibly another device than the
 * tables'). Thread-safe.
 */
public final class ValueLogs implements AutoCloseable {
    private final Path dir;
    private final Cache<ValueLogId, ValueLogReader> readers;

    public ValueLogs(Path dir, int maxOpenFiles) {
        this.dir = dir;
        this.readers = Caffeine.newBuilder()
                .maximumSize(maxOpenFiles)
                .executor(Runnable::run)
                .<ValueLogId, ValueLogReader>removalListener((id, reader, cause) -> {
                    if (reader != null) {
                        reader.release();
                    }
                })
                .build();
    }

    public Path directory() {
        return dir;
    }

    /** Reads the value at {@code pointer}, which an entry for {@code userKey} holds. */
    public byte[] read(ValuePointer pointer, byte[] userKey) {
        return withReader(pointer, r -> r.read(pointer, userKey));
    }

    /** Reads the record at {@code pointer} as stored, checked but not decompressed. */
    public ValueLogReader.StoredValue readStored(ValuePointer pointer, byte[] userKey) {
        return withReader(pointer, r -> r.readStored(pointer, userKey));
    }

    private interface ReaderCall<T> {
        T apply(ValueLogReader r) throws IOException;
    }

    private <T> T withReader(ValuePointer pointer, ReaderCall<T> call) {
        while (true) {
            ValueLogReader r = readers.get(pointer.file(), this::open);
            if (!r.tryAcquire()) {
                readers.asMap().remove(pointer.file(), r); // closed under us by eviction
                continue;
            }
            try {
                return call.apply(r);
            } catch (IOException e) {
                throw EngineException.io("reading " + r.path(), e);
            } finally {
                r.release();
            }
        }
    }

    private ValueLogReader open(ValueLogId id) {
        try {
            return ValueLogReader.open(dir, id);
        } catch (IOException e) {
            throw EngineException.io("opening value log " + id.path(dir), e);
        }
    }

    /** Forgets a deleted file's reader. */
    public void evict(ValueLogId id) {
        readers.invalidate(id);
    }

    @Override
    public void close() {
        readers.invalidateAll();
        readers.cleanUp();
    }
}
