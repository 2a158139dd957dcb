package dev.strata.engine.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Uncompressed, checksum-verified data blocks, bounded by their total size and keyed by
 * (table file number, block offset). File numbers are never reused, so entries of a deleted
 * table can never be hit again and simply age out. A size of zero disables caching.
 * Thread-safe.
 */
public final class BlockCache {
    /** Per-entry bookkeeping the weight adds to a block's bytes, so tiny blocks are not free. */
    private static final int ENTRY_OVERHEAD = 64;

    private record Key(long fileNumber, long offset) {}

    /** Reads a block on a miss; returns its uncompressed contents. */
    @FunctionalInterface
    public interface Loader {
        byte[] load() throws IOException;
    }

    private final Cache<Key, byte[]> blocks;

    public BlockCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("block cache capacity " + capacityBytes);
        }
        this.blocks = capacityBytes == 0 ? null : Caffeine.newBuilder()
                .maximumWeight(capacityBytes)
                .<Key, byte[]>weigher((k, v) -> v.length + ENTRY_OVERHEAD)
                .executor(Runnable::run)
                .recordStats()
                .build();
    }

    /** The cached block, or the loader's result (cached for next time). Loader failures are not cached. */
    public byte[] get(long fileNumber, long offset, Loader loader) throws IOException {
        if (blocks == null) {
            return loader.load();
        }
        try {
            return blocks.get(new Key(fileNumber, offset), k -> {
                try {
                    return loader.load();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    public long hits() {
        return blocks == null ? 0 : stats().hitCount();
    }

    public long misses() {
        return blocks == null ? 0 : stats().missCount();
    }

    /** Bytes of blocks held now (with per-entry overhead). */
    public long usedBytes() {
        if (blocks == null) {
            return 0;
        }
        blocks.cleanUp(); // apply pending bookkeeping so the size is current
        return blocks.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    private CacheStats stats() {
        return blocks.stats();
    }
}
