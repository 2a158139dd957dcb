package dev.strata.engine.sst;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.cache.BlockCache;
import dev.strata.engine.checkpoint.StagedFiles;
import dev.strata.engine.compress.Codec;
import dev.strata.engine.iterator.InternalIterator;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.Lookup;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.testing.DbFiles;
import dev.strata.engine.util.FileWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableTest {
    @TempDir
    Path dir;

    private final FilterStats filterStats = new FilterStats();
    private final BlockCache noCache = new BlockCache(0);

    private static byte[] key(int i) {
        return String.format("user-key-%06d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i, int size, boolean compressible) {
        byte[] v = new byte[size];
        if (compressible) {
            for (int j = 0; j < size; j++) {
                v[j] = (byte) ('a' + (i + j / 16) % 26);
            }
        } else {
            new Random(i).nextBytes(v);
        }
        return v;
    }

    /** Every even key from 0 to 2(n-1), each with two versions (sequence 2i+1 newer, 2i older); every 10th newest version a tombstone. */
    private Path writeTable(String name, int n, Codec codec, boolean compressible, int bloomBits) throws IOException {
        Path path = dir.resolve(name);
        TableBuilder b = new TableBuilder(FileWriter.create(path), new TableBuilder.Options(4096, 16, bloomBits, codec, 3));
        for (int i = 0; i < n; i++) {
            byte[] k = key(2 * i);
            ValueType newest = i % 10 == 0 ? ValueType.DELETION : ValueType.VALUE;
            b.add(new InternalKey(k, 2L * i + 1, newest).encode(), newest == ValueType.VALUE ? value(i, 100, compressible) : new byte[0]);
            b.add(new InternalKey(k, 2L * i, ValueType.VALUE).encode(), value(-i, 50, compressible));
        }
        b.finish();
        assertThat(b.fileSize()).isEqualTo(Files.size(path));
        assertThat(b.fileCrc()).as("content id CRC").isEqualTo(StagedFiles.crcOf(path));
        return path;
    }

    @Test
    void everyEntryIsReadBackInOrder() throws IOException {
        Path path = writeTable("t.sst", 2000, Codec.NONE, true, 10);
        TableReader r = TableReader.open(path, 1, filterStats, noCache);
        try (InternalIterator it = r.iterator()) {
            int count = 0;
            byte[] prev = null;
            for (it.seekToFirst(); it.valid(); it.next()) {
                if (prev != null) {
                    assertThat(InternalKey.COMPARATOR.compare(prev, it.key())).isNegative();
                }
                prev = it.key();
                count++;
            }
            assertThat(count).isEqualTo(4000);
        } finally {
            r.release();
        }
        TableProperties p = r.properties();
        assertThat(p.entries()).isEqualTo(4000);
        assertThat(p.deletions()).isEqualTo(200);
        assertThat(p.smallestSequence()).isZero();
        assertThat(p.largestSequence()).isEqualTo(3999);
        assertThat(InternalKey.decode(p.smallestKey()).userKey()).isEqualTo(key(0));
        assertThat(InternalKey.decode(p.largestKey()).userKey()).isEqualTo(key(3998));
    }

    @Test
    void pointLookupsHonourSequenceAndTombstones() throws IOException {
        Path path = writeTable("t.sst", 500, Codec.LZ4, true, 10);
        TableReader r = TableReader.open(path, 1, filterStats, noCache);
        try {
            assertThat(r.get(key(2 * 7), Long.MAX_VALUE >>> 8).value()).isEqualTo(value(7, 100, true));
            assertThat(r.get(key(2 * 7), 14).value()).as("older version at its own sequence").isEqualTo(value(-7, 50, true));
            assertThat(r.get(key(2 * 7), 13).state()).as("before both versions").isEqualTo(Lookup.State.NOT_FOUND);
            assertThat(r.get(key(2 * 10), 1000).state()).isEqualTo(Lookup.State.DELETED);
            assertThat(r.get(key(2 * 10), 20).value()).isEqualTo(value(-10, 50, true));
            assertThat(r.get(key(3), 1000).state()).isEqualTo(Lookup.State.NOT_FOUND);
            assertThat(r.get(key(99_999), 1000).state()).isEqualTo(Lookup.State.NOT_FOUND);
        } finally {
            r.release();
        }
    }

    @Test
    void seekLandsOnTheFirstEntryAtOrAfterTheTarget() throws IOException {
        Path path = writeTable("t.sst", 1000, Codec.ZSTD, true, 10);
        TableReader r = TableReader.open(path, 1, filterStats, noCache);
        try (InternalIterator it = r.iterator()) {
            it.seek(InternalKey.encodeLookupKey(key(501), 1_000_000));
            assertThat(InternalKey.decode(it.key()).userKey()).isEqualTo(key(502));
            it.seek(InternalKey.encodeLookupKey(key(1998), 1_000_000));
            assertThat(InternalKey.decode(it.key()).sequence()).isEqualTo(1999);
            it.next();
            assertThat(InternalKey.decode(it.key()).sequence()).isEqualTo(1998);
            it.next();
            assertThat(it.valid()).isFalse();
        } finally {
            r.release();
        }
    }

    @Test
    void bloomFilterSkipsMostAbsentKeys() throws IOException {
        Path path = writeTable("t.sst", 5000, Codec.NONE, true, 10);
        TableReader r = TableReader.open(path, 1, filterStats, noCache);
        try {
            for (int i = 0; i < 10_000; i++) {
                r.get(key(2 * i + 1), 1_000_000); // odd keys are absent
            }
        } finally {
            r.release();
        }
        assertThat(filterStats.useful() + filterStats.falsePositives()).isEqualTo(10_000);
        // 10 bits per key gives about 1% false positives; allow 3x for this fixed key set.
        assertThat(filterStats.falsePositives()).isLessThan(300);
    }

    @Test
    void blocksAreCompressedOnlyWhenItPays() throws IOException {
        TableReader compressible = TableReader.open(writeTable("c.sst", 2000, Codec.ZSTD, true, 10), 1, filterStats, noCache);
        TableReader random = TableReader.open(writeTable("r.sst", 2000, Codec.ZSTD, false, 10), 2, filterStats, noCache);
        try {
            TableProperties c = compressible.properties();
            assertThat(c.blocksPerCodec()[Codec.ZSTD.ordinal()]).isEqualTo(c.dataBlocks());
            assertThat(c.storedDataBytes()).isLessThan(c.rawDataBytes() / 2);
            TableProperties rnd = random.properties();
            assertThat(rnd.blocksPerCodec()[Codec.NONE.ordinal()]).as("random data is stored raw").isEqualTo(rnd.dataBlocks());
        } finally {
            compressible.release();
            random.release();
        }
    }

    @Test
    void blockCacheServesRepeatedReadsAndNeverCachesDamage() throws IOException {
        Path path = writeTable("t.sst", 2000, Codec.LZ4, true, 10);
        BlockCache cache = new BlockCache(1 << 20);
        TableReader r = TableReader.open(path, 1, filterStats, cache);
        try {
            byte[] first = r.get(key(2 * 55), 1_000_000).value();
            assertThat(first).isEqualTo(value(55, 100, true));
            assertThat(cache.misses()).isEqualTo(1);
            assertThat(cache.hits()).isZero();
            assertThat(r.get(key(2 * 55), 1_000_000).value()).isEqualTo(first);
            assertThat(cache.misses()).isEqualTo(1);
            assertThat(cache.hits()).isEqualTo(1);
            assertThat(cache.usedBytes()).isPositive().isLessThanOrEqualTo(1 << 20);
        } finally {
            r.release();
        }
        DbFiles.flip(path, 10);
        BlockCache fresh = new BlockCache(1 << 20);
        TableReader damaged = TableReader.open(path, 2, filterStats, fresh);
        try {
            for (int attempt = 0; attempt < 2; attempt++) {
                assertThatThrownBy(() -> damaged.get(key(0), 1_000_000)).isInstanceOf(CorruptionException.class);
            }
            assertThat(fresh.misses()).as("a failed read is not cached: tried again").isEqualTo(2);
        } finally {
            damaged.release();
        }
    }

    @Test
    void noFilterWhenBitsPerKeyIsZero() throws IOException {
        TableReader r = TableReader.open(writeTable("t.sst", 100, Codec.NONE, true, 0), 1, filterStats, noCache);
        try {
            assertThat(r.get(key(1), 1000).state()).isEqualTo(Lookup.State.NOT_FOUND);
            assertThat(filterStats.useful() + filterStats.falsePositives()).isZero();
        } finally {
            r.release();
        }
    }

    @Test
    void keysOutOfOrderAreRefused() throws IOException {
        TableBuilder b = new TableBuilder(FileWriter.create(dir.resolve("x.sst")), new TableBuilder.Options(4096, 16, 10, Codec.NONE, 3));
        b.add(new InternalKey(key(2), 1, ValueType.VALUE).encode(), new byte[0]);
        assertThatThrownBy(() -> b.add(new InternalKey(key(1), 2, ValueType.VALUE).encode(), new byte[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of order");
        b.abandon();
        assertThat(dir.resolve("x.sst")).doesNotExist();
    }

    // ------------------------------------------------------------ corruption

    private record Layout(long firstDataBlock, long filterOffset, long propertiesOffset, long indexOffset, long footer) {}

    private static Layout layout(Path path) throws IOException {
        byte[] all = Files.readAllBytes(path);
        long footer = all.length - TableFormat.FOOTER_SIZE;
        String[] why = new String[1];
        TableFormat.Footer f = TableFormat.Footer.decode(java.util.Arrays.copyOfRange(all, (int) footer, all.length), why);
        return new Layout(0, f.filter().offset(), f.properties().offset(), f.index().offset(), footer);
    }

    @Test
    void damagedDataBlockIsReportedWithFileAndOffset() throws IOException {
        Path path = writeTable("t.sst", 2000, Codec.LZ4, true, 10);
        DbFiles.flip(path, 100);
        TableReader r = TableReader.open(path, 1, filterStats, noCache);
        try {
            assertThatThrownBy(() -> r.get(key(0), 1_000_000)).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining(path.toString()).hasMessageContaining("offset 0")
                    .hasMessageContaining("data block checksum mismatch");
            try (InternalIterator it = r.iterator()) {
                assertThatThrownBy(it::seekToFirst).isInstanceOf(CorruptionException.class);
            }
            assertThat(r.get(key(3000), 1_000_000)).as("other blocks still read").isNotNull();
        } finally {
            r.release();
        }
    }

    @Test
    void damagedMetaBlocksAndFooterFailTheOpen() throws IOException {
        Path clean = writeTable("clean.sst", 2000, Codec.NONE, true, 10);
        Layout l = layout(clean);
        record Case(String what, long offset, String message) {}
        List<Case> cases = new ArrayList<>(List.of(
                new Case("filter", l.filterOffset() + 10, "filter block checksum mismatch"),
                new Case("properties", l.propertiesOffset() + 3, "properties block checksum mismatch"),
                new Case("index", l.indexOffset() + 3, "index block checksum mismatch"),
                new Case("footer handle", l.footer() + 2, "footer checksum mismatch"),
                new Case("footer magic", l.footer() + TableFormat.FOOTER_SIZE - 1, "magic")));
        int i = 0;
        for (Case c : cases) {
            Path damaged = dir.resolve("damaged-" + i++ + ".sst");
            Files.copy(clean, damaged);
            DbFiles.flip(damaged, c.offset());
            assertThatThrownBy(() -> TableReader.open(damaged, 9, filterStats, noCache)).as(c.what())
                    .isInstanceOf(CorruptionException.class)
                    .hasMessageContaining(damaged.toString())
                    .hasMessageContaining(c.message());
        }
    }

    @Test
    void truncatedTableFailsTheOpen() throws IOException {
        Path path = writeTable("t.sst", 100, Codec.NONE, true, 10);
        try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
            f.setLength(f.length() - 10);
        }
        assertThatThrownBy(() -> TableReader.open(path, 1, filterStats, noCache)).isInstanceOf(CorruptionException.class);
        try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
            f.setLength(20);
        }
        assertThatThrownBy(() -> TableReader.open(path, 1, filterStats, noCache)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("shorter than its footer");
    }

    // ------------------------------------------------------------ golden file

    /**
     * Pins the table format byte for byte. If the format changes on purpose, bump the format
     * version and regenerate with {@code -Dstrata.regenerateGolden=true}.
     */
    @Test
    void formatMatchesTheGoldenFile() throws IOException {
        Path golden = Path.of("src/test/resources/golden/table-v1.sst");
        Path path = dir.resolve("golden.sst");
        TableBuilder b = new TableBuilder(FileWriter.create(path), new TableBuilder.Options(256, 4, 10, Codec.NONE, 3));
        for (int i = 0; i < 40; i++) {
            ValueType type = i % 7 == 3 ? ValueType.DELETION : ValueType.VALUE;
            b.add(new InternalKey(key(i), 100 + i, type).encode(),
                    type == ValueType.VALUE ? ("value-" + i).getBytes(StandardCharsets.UTF_8) : new byte[0]);
        }
        b.finish();
        if (Boolean.getBoolean("strata.regenerateGolden")) {
            Files.createDirectories(golden.getParent());
            Files.copy(path, golden, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        assertThat(golden).as("golden file (regenerate with -Dstrata.regenerateGolden=true)").exists();
        assertThat(Files.readAllBytes(path)).isEqualTo(Files.readAllBytes(golden));
        TableReader r = TableReader.open(golden, 1, filterStats, noCache);
        try {
            assertThat(r.get(key(5), 1000).value()).isEqualTo("value-5".getBytes(StandardCharsets.UTF_8));
            assertThat(r.get(key(3), 1000).state()).isEqualTo(Lookup.State.DELETED);
        } finally {
            r.release();
        }
    }
}
