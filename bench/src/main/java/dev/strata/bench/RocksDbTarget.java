package dev.strata.bench;

import dev.strata.engine.EngineOptions;
import org.rocksdb.ColumnFamilyMetaData;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileMetaData;
import org.rocksdb.TableProperties;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RocksDB through its Java binding, in this process, with options mirroring Strata's
 * ({@link RocksDbOptions}), for side-by-side runs. Thread-safe as {@link BenchTarget} requires.
 *
 * <p>Its storage figures come from RocksDB's own properties, computed as Strata computes its
 * own: write amplification from the bytes written to the WAL, by flushes and by compactions
 * (tables and blob files); live bytes as RocksDB's {@code estimate-live-data-size}, which is the
 * tables' estimate plus the blob bytes not counted as garbage, Strata's method too.
 */
final class RocksDbTarget implements BenchTarget {
    static {
        RocksDB.loadLibrary();
    }

    /** Properties that are all zero when no flush or compaction runs or is due. */
    private static final List<String> BACKGROUND_WORK = List.of("rocksdb.mem-table-flush-pending",
            "rocksdb.num-running-flushes", "rocksdb.compaction-pending", "rocksdb.num-running-compactions");
    private static final long POLL_MILLIS = 20;
    private static final double GIB = 1L << 30;

    private final Path dir;
    private final RocksDbOptions options;
    private final RocksDB db;

    private RocksDbTarget(Path dir, RocksDbOptions options, RocksDB db) {
        this.dir = dir;
        this.options = options;
        this.db = db;
    }

    /**
     * Opens (or creates) RocksDB in {@code dir} with the counterpart of Strata's {@code options}.
     *
     * @throws IllegalArgumentException when an option has no RocksDB counterpart
     */
    static RocksDbTarget open(Path dir, EngineOptions options, RocksDbOptions.BlobCompression blobCompression) {
        RocksDbOptions mirror = RocksDbOptions.mirroring(options, blobCompression);
        try {
            return new RocksDbTarget(dir, mirror, RocksDB.open(mirror.options(), dir.toString()));
        } catch (RocksDBException e) {
            mirror.close();
            throw failure("open in " + dir, e);
        }
    }

    @Override
    public String name() {
        return TargetEngine.ROCKSDB.label();
    }

    @Override
    public Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("rocksdb_version", RocksDB.rocksdbVersion().toString());
        settings.putAll(options.recorded());
        return settings;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            db.put(options.writeOptions(), key, value);
        } catch (RocksDBException e) {
            throw failure("put", e);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(options.readOptions(), key);
        } catch (RocksDBException e) {
            throw failure("get", e);
        }
    }

    @Override
    public Cursor scan(byte[] fromInclusive) {
        return new RocksCursor(db.newIterator(options.readOptions()), fromInclusive);
    }

    @Override
    public void flush() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
        } catch (RocksDBException e) {
            throw failure("flush", e);
        }
    }

    /** Like Strata's compactRange: everything to the bottom level, which is rewritten even if it was the only one. */
    @Override
    public void compact() {
        try (CompactRangeOptions compact = new CompactRangeOptions()
                .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForceOptimized)) {
            db.compactRange(db.getDefaultColumnFamily(), null, null, compact);
        } catch (RocksDBException e) {
            throw failure("compactRange", e);
        }
    }

    /**
     * Polls until no flush or compaction runs or is pending, twice in a row (a finished
     * compaction may schedule the next one just after it is counted out). The Java binding has
     * no {@code WaitForCompact}.
     */
    @Override
    public void waitForBackgroundWork() {
        int quietPolls = 0;
        while (quietPolls < 2) {
            quietPolls = backgroundWorkPending() ? 0 : quietPolls + 1;
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for RocksDB's background work", e);
            }
        }
    }

    private boolean backgroundWorkPending() {
        for (String property : BACKGROUND_WORK) {
            if (longProperty(property) != 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public StorageStats stats() {
        try {
            Map<String, String> dbStats = db.getMapProperty("rocksdb.dbstats");
            Map<String, String> cfStats = db.getMapProperty("rocksdb.cfstats");
            long walBytes = count(dbStats, "db.wal_bytes_written");
            long userBytes = count(dbStats, "db.user_bytes_written");
            // Flushes are counted as compactions into L0; WblobGB is what both wrote to blob files.
            long tableAndBlobBytes = Math.round((number(cfStats, "compaction.Sum.WriteGB")
                    + number(cfStats, "compaction.Sum.WblobGB")) * GIB);
            long flushes = count(cfStats, "compaction.L0.CompCount");
            long compactions = count(cfStats, "compaction.Sum.CompCount") - flushes;
            // Blob bytes not counted as garbage included, as in Strata's estimate.
            long liveBytes = longProperty("rocksdb.estimate-live-data-size");
            long totalBytes = DbDirectory.sizeOf(dir);

            Map<String, Object> engineStats = new LinkedHashMap<>();
            for (String property : List.of("rocksdb.estimate-live-data-size", "rocksdb.live-sst-files-size",
                    "rocksdb.num-blob-files", "rocksdb.live-blob-file-size", "rocksdb.live-blob-file-garbage-size",
                    "rocksdb.estimate-num-keys", "rocksdb.block-cache-usage", "rocksdb.estimate-pending-compaction-bytes")) {
                engineStats.put(property, longProperty(property));
            }
            engineStats.put("rocksdb.dbstats", dbStats);
            engineStats.put("rocksdb.cfstats", cfStats);
            double writeAmplification = userBytes == 0 ? 0 : (double) (walBytes + tableAndBlobBytes) / userBytes;
            double spaceAmplification = liveBytes == 0 ? 0 : (double) totalBytes / liveBytes;
            return new StorageStats(writeAmplification, spaceAmplification, totalBytes, liveBytes, userBytes, flushes,
                    compactions, count(dbStats, "db.user_write_stall_micros"), levels(), engineStats);
        } catch (RocksDBException e) {
            throw failure("reading properties", e);
        }
    }

    /** Files and bytes per non-empty level; raw bytes are the raw key and value sizes of the tables' properties. */
    private List<StorageStats.Level> levels() throws RocksDBException {
        Map<Long, TableProperties> properties = new HashMap<>();
        for (Map.Entry<String, TableProperties> e : db.getPropertiesOfAllTables().entrySet()) {
            properties.put(fileNumber(e.getKey()), e.getValue());
        }
        ColumnFamilyMetaData metaData = db.getColumnFamilyMetaData();
        List<StorageStats.Level> levels = new ArrayList<>();
        for (LevelMetaData level : metaData.levels()) {
            if (level.files().isEmpty()) {
                continue;
            }
            long raw = 0;
            for (SstFileMetaData file : level.files()) {
                TableProperties p = properties.get(fileNumber(file.fileName()));
                if (p != null) {
                    raw += p.getRawKeySize() + p.getRawValueSize();
                }
            }
            levels.add(new StorageStats.Level(level.level(), level.files().size(), level.size(), raw));
        }
        return levels;
    }

    /** The number in a table file's name, however much of its path the binding gives ({@code /db/000012.sst}). */
    private static long fileNumber(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.indexOf('.');
        return Long.parseLong(dot < 0 ? name : name.substring(0, dot));
    }

    private long longProperty(String name) {
        try {
            return db.getLongProperty(name);
        } catch (RocksDBException e) {
            throw failure("property " + name, e);
        }
    }

    private static long count(Map<String, String> stats, String key) {
        return Math.round(number(stats, key));
    }

    /** A figure of a map property: missing means none (RocksDB leaves out levels that never held data). */
    private static double number(Map<String, String> stats, String key) {
        String value = stats.get(key);
        return value == null ? 0 : Double.parseDouble(value);
    }

    /** Stops background work (a running compaction stops early, as in Strata) and closes the database. */
    @Override
    public void close() {
        try {
            db.cancelAllBackgroundWork(true);
            db.closeE();
        } catch (RocksDBException e) {
            throw failure("close", e);
        } finally {
            options.close();
        }
    }

    private static IllegalStateException failure(String what, RocksDBException e) {
        return new IllegalStateException("RocksDB " + what + " failed: " + e.getMessage(), e);
    }

    /** A RocksDB iterator as a {@link Cursor}: positioned by the constructor, so the first {@code next()} only checks it. */
    private static final class RocksCursor implements Cursor {
        private final RocksIterator iterator;
        private boolean started;

        RocksCursor(RocksIterator iterator, byte[] fromInclusive) {
            this.iterator = iterator;
            if (fromInclusive == null) {
                iterator.seekToFirst();
            } else {
                iterator.seek(fromInclusive);
            }
        }

        @Override
        public boolean next() {
            if (started) {
                iterator.next();
            }
            started = true;
            if (iterator.isValid()) {
                return true;
            }
            try {
                iterator.status();
            } catch (RocksDBException e) {
                throw failure("iterator", e);
            }
            return false;
        }

        @Override
        public byte[] key() {
            return iterator.key();
        }

        @Override
        public byte[] value() {
            return iterator.value();
        }

        @Override
        public void close() {
            iterator.close();
        }
    }
}
