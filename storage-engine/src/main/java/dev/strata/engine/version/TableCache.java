package dev.strata.engine.version;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.EngineException;
import dev.strata.engine.cache.BlockCache;
import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.Lookup;
import dev.strata.engine.sst.FilterStats;
import dev.strata.engine.sst.TableReader;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Open table readers, with their index and filter in memory, bounded in number
 * (LevelDB's {@code table_cache}). An evicted reader closes only when the last iterator using
 * it is closed, so eviction never breaks a scan. Thread-safe.
 */
public final class TableCache implements AutoCloseable {
    private final Path dir;
    private final FilterStats filterStats;
    private final BlockCache blockCache;
    private final Cache<Long, TableReader> readers;

    public TableCache(Path dir, int maxOpenTables, FilterStats filterStats, BlockCache blockCache) {
        this.dir = dir;
        this.filterStats = filterStats;
        this.blockCache = blockCache;
        this.readers = Caffeine.newBuilder()
                .maximumSize(maxOpenTables)
                .executor(Runnable::run) // release on the evicting thread, not a pool thread
                .<Long, TableReader>removalListener((number, reader, cause) -> {
                    if (reader != null) {
                        reader.release();
                    }
                })
                .build();
    }

    /** A reader with a reference taken for the caller, who must {@link TableReader#release()} it. */
    public TableReader acquire(FileMetadata file) {
        while (true) {
            TableReader r = readers.get(file.number(), n -> open(file));
            if (r.tryAcquire()) {
                return r;
            }
            readers.asMap().remove(file.number(), r); // closed under us by eviction; open again
        }
    }

    private TableReader open(FileMetadata file) {
        Path path = FileNames.table(dir, file.number());
        try {
            TableReader r = TableReader.open(path, file.number(), filterStats, blockCache);
            if (r.fileSize() != file.fileSize()) {
                r.release();
                throw new CorruptionException(path, Math.min(r.fileSize(), file.fileSize()),
                        "table is " + r.fileSize() + " bytes, the manifest says " + file.fileSize());
            }
            return r;
        } catch (IOException e) {
            throw EngineException.io("opening table " + path, e);
        }
    }

    /** The newest version of {@code userKey} visible at {@code sequence} in {@code file}. */
    public Lookup get(FileMetadata file, byte[] userKey, long sequence) {
        TableReader r = acquire(file);
        try {
            return r.get(userKey, sequence);
        } catch (IOException e) {
            throw EngineException.io("reading " + r.path(), e);
        } finally {
            r.release();
        }
    }

    /** An iterator over {@code file} that holds the table open until it is closed. */
    public InternalIterator iterator(FileMetadata file) {
        TableReader r = acquire(file);
        InternalIterator it = r.iterator();
        return new InternalIterator() {
            private boolean closed;

            @Override public boolean valid() { return it.valid(); }
            @Override public void seekToFirst() { it.seekToFirst(); }
            @Override public void seek(byte[] target) { it.seek(target); }
            @Override public void next() { it.next(); }
            @Override public byte[] key() { return it.key(); }
            @Override public byte[] value() { return it.value(); }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    it.close();
                    r.release();
                }
            }
        };
    }

    /** Tables open now (at most the configured bound, give or take eviction in progress). */
    public long openTables() {
        return readers.estimatedSize();
    }

    /** Forgets a deleted file's reader. */
    public void evict(long fileNumber) {
        readers.invalidate(fileNumber);
    }

    @Override
    public void close() {
        readers.invalidateAll();
        readers.cleanUp();
    }
}
