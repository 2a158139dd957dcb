package dev.strata.engine.vlog;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.checkpoint.StagedFiles;
import dev.strata.engine.compress.Codec;
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

class ValueLogTest {
    @TempDir
    Path dir;

    private static final ValueLogId ID = new ValueLogId(0x1234_5678_9abc_def0L, 42);

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i, boolean compressible) {
        byte[] v = new byte[1000 + i * 37];
        if (compressible) {
            for (int j = 0; j < v.length; j++) {
                v[j] = (byte) ('a' + (j / 10 + i) % 5);
            }
        } else {
            new Random(i).nextBytes(v);
        }
        return v;
    }

    private List<ValuePointer> write(int n, Codec codec) throws IOException {
        ValueLogWriter w = ValueLogWriter.create(dir, ID);
        List<ValuePointer> pointers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pointers.add(w.add(key(i), value(i, i % 2 == 0), codec, 3));
        }
        ValueLogFileMetadata m = w.finish();
        assertThat(m.entries()).isEqualTo(n);
        assertThat(m.fileSize()).isEqualTo(Files.size(ID.path(dir)));
        assertThat(m.recordBytes()).isEqualTo(pointers.stream().mapToLong(ValuePointer::length).sum());
        assertThat(m.fileCrc()).as("content id CRC of the whole file").isEqualTo(StagedFiles.crcOf(ID.path(dir)));
        return pointers;
    }

    @Test
    void recordsStoredWithTheProvisionalCodecAreCounted() throws IOException {
        ValueLogWriter w = ValueLogWriter.create(dir, ID, Codec.LZ4);
        ValuePointer fast = w.add(key(0), value(0, true), Codec.LZ4, 3);
        w.add(key(1), value(1, true), Codec.ZSTD, 3);
        w.add(key(2), value(2, false), Codec.LZ4, 3); // random bytes: stored raw, not provisional
        ValuePointer copied = w.addStored(key(3), Codec.LZ4, Codec.LZ4.compress(value(3, true), 0, 1111, 3));
        ValueLogFileMetadata m = w.finish();
        assertThat(m.provisionalBytes()).isEqualTo(fast.length() + copied.length());
        ValueLogWriter plain = ValueLogWriter.create(dir, new ValueLogId(ID.origin(), 99));
        plain.add(key(0), value(0, true), Codec.LZ4, 3);
        assertThat(plain.finish().provisionalBytes()).as("a writer without a provisional codec counts none").isZero();
    }

    @Test
    void valuesRoundTripThroughTheirPointers() throws IOException {
        List<ValuePointer> pointers = write(50, Codec.ZSTD);
        ValueLogReader r = ValueLogReader.open(dir, ID);
        try {
            for (int i = 0; i < 50; i++) {
                assertThat(r.read(pointers.get(i), key(i))).isEqualTo(value(i, i % 2 == 0));
                assertThat(ValuePointer.decode(pointers.get(i).encode())).isEqualTo(pointers.get(i));
            }
        } finally {
            r.release();
        }
        ValuePointer compressed = pointers.get(0);
        ValuePointer raw = pointers.get(1);
        assertThat(compressed.length()).as("compressible value stored compressed").isLessThan(value(0, true).length / 2);
        assertThat(raw.length()).as("random value stored raw").isGreaterThan(value(1, false).length);
    }

    @Test
    void damagedRecordIsReportedWithFileAndOffset() throws IOException {
        List<ValuePointer> pointers = write(10, Codec.LZ4);
        ValuePointer p = pointers.get(4);
        try (RandomAccessFile f = new RandomAccessFile(ID.path(dir).toFile(), "rw")) {
            f.seek(p.offset() + 20);
            int b = f.read();
            f.seek(p.offset() + 20);
            f.write(b ^ 1);
        }
        ValueLogReader r = ValueLogReader.open(dir, ID);
        try {
            assertThatThrownBy(() -> r.read(p, key(4))).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining(ID.fileName()).hasMessageContaining("offset " + p.offset())
                    .hasMessageContaining("checksum");
            assertThat(r.read(pointers.get(5), key(5))).as("neighbours are fine").isEqualTo(value(5, false));
            assertThatThrownBy(() -> r.read(pointers.get(5), key(6))).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining("another key");
        } finally {
            r.release();
        }
    }

    @Test
    void damagedOrMisnamedHeaderFailsTheOpen() throws IOException {
        write(3, Codec.NONE);
        Path other = new ValueLogId(ID.origin(), 43).path(dir);
        Files.copy(ID.path(dir), other);
        assertThatThrownBy(() -> ValueLogReader.open(dir, new ValueLogId(ID.origin(), 43)))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("header names");
        try (RandomAccessFile f = new RandomAccessFile(ID.path(dir).toFile(), "rw")) {
            f.seek(14);
            f.write(0x7f);
        }
        assertThatThrownBy(() -> ValueLogReader.open(dir, ID)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("header checksum");
    }

    /**
     * Replicas write the same records into value logs that differ only in the name their header
     * holds. With the plain header CRC stored, the CRC of the whole file (the content id a
     * receiver reuses files by) came out the same for both, and a node took its own log for the
     * leader's.
     */
    @Test
    void logsWithTheSameRecordsUnderOtherNamesHaveOtherContentIds() throws IOException {
        List<ValueLogFileMetadata> logs = new ArrayList<>();
        for (ValueLogId id : List.of(ID, new ValueLogId(0x0fed_cba9_8765_4321L, 42), new ValueLogId(ID.origin(), 43))) {
            ValueLogWriter w = ValueLogWriter.create(dir, id);
            for (int i = 0; i < 5; i++) {
                w.add(key(i), value(i, true), Codec.NONE, 3);
            }
            logs.add(w.finish());
        }
        assertThat(logs).extracting(ValueLogFileMetadata::fileSize).containsOnly(logs.get(0).fileSize());
        assertThat(logs).extracting(ValueLogFileMetadata::fileCrc).doesNotHaveDuplicates();
    }

    @Test
    void idsNameFilesAndParseBack() {
        assertThat(ID.fileName()).isEqualTo("123456789abcdef0-000042.vlog");
        assertThat(ValueLogId.parse(ID.fileName())).isEqualTo(ID);
        ValueLogId negative = new ValueLogId(-1L, 7);
        assertThat(ValueLogId.parse(negative.fileName())).isEqualTo(negative);
        assertThat(ValueLogId.parse("000001.sst")).isNull();
        assertThat(ValueLogId.parse("zz3456789abcdef0-000042.vlog")).isNull();
        assertThat(ValueLogId.parse("123456789abcdef0-.vlog")).isNull();
    }
}
