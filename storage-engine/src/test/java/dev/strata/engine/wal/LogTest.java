package dev.strata.engine.wal;

import dev.strata.engine.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogTest {
    @TempDir
    Path dir;

    private Path log;
    private final List<Long> starts = new ArrayList<>();

    private static byte[] record(int size, int seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private List<byte[]> write(int... sizes) throws IOException {
        log = dir.resolve("000001.wal");
        List<byte[]> written = new ArrayList<>();
        try (LogWriter w = LogWriter.create(log)) {
            for (int i = 0; i < sizes.length; i++) {
                starts.add(w.size());
                byte[] r = record(sizes[i], i);
                w.addRecord(r);
                written.add(r);
            }
            w.sync();
        }
        return written;
    }

    private List<byte[]> readAll(LogReader r) throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (byte[] rec; (rec = r.next()) != null; ) {
            out.add(rec);
        }
        return out;
    }

    private void flipByte(long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x40);
        }
    }

    private void truncate(long length) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.setLength(length);
        }
    }

    @Test
    void recordsOfEverySizeRoundTrip() throws IOException {
        int block = LogFormat.BLOCK_SIZE;
        int h = LogFormat.HEADER_SIZE;
        List<byte[]> written = write(0, 1, 100, block - h, block, block - 2 * h - 3, 5, 3 * block + 5, 70_000, 17);
        try (LogReader r = new LogReader(log)) {
            assertThat(readAll(r)).containsExactlyElementsOf(written);
            assertThat(r.tornTail()).isFalse();
            assertThat(r.validLength()).isEqualTo(Files.size(log));
        }
    }

    @Test
    void blockTrailerTooSmallForAHeaderIsPadded() throws IOException {
        // The first record leaves 6 bytes in the block: the writer pads, the reader skips them.
        List<byte[]> written = write(LogFormat.BLOCK_SIZE - LogFormat.HEADER_SIZE - 6, 10);
        assertThat(starts.get(1)).isEqualTo(LogFormat.BLOCK_SIZE - 6);
        try (LogReader r = new LogReader(log)) {
            assertThat(readAll(r)).containsExactlyElementsOf(written);
        }
    }

    @Test
    void tornTailIsTruncatedAtTheLastCompleteRecord() throws IOException {
        List<byte[]> written = write(100, 200, 300);
        truncate(starts.get(2) + 150);
        try (LogReader r = new LogReader(log)) {
            assertThat(readAll(r)).containsExactlyElementsOf(written.subList(0, 2));
            assertThat(r.tornTail()).isTrue();
            assertThat(r.validLength()).isEqualTo(starts.get(2));
        }
    }

    @Test
    void tornTailInsideARecordSpanningBlocksDropsTheWholeRecord() throws IOException {
        List<byte[]> written = write(1000, 3 * LogFormat.BLOCK_SIZE);
        truncate(starts.get(1) + 2 * LogFormat.BLOCK_SIZE + 100);
        try (LogReader r = new LogReader(log)) {
            assertThat(readAll(r)).containsExactlyElementsOf(written.subList(0, 1));
            assertThat(r.tornTail()).isTrue();
            assertThat(r.validLength()).isEqualTo(starts.get(1));
        }
    }

    @Test
    void zeroedBytesAtTheEndAreATornTail() throws IOException {
        List<byte[]> written = write(100, 100);
        long size = Files.size(log);
        truncate(size + 4096); // a crash after the file grew but before data reached it
        try (LogReader r = new LogReader(log)) {
            assertThat(readAll(r)).containsExactlyElementsOf(written);
            assertThat(r.tornTail()).isTrue();
            assertThat(r.validLength()).isEqualTo(size);
        }
    }

    @Test
    void damagedLastRecordIsATornTail() throws IOException {
        List<byte[]> written = write(100, 100, 100);
        flipByte(starts.get(2) + LogFormat.HEADER_SIZE + 10);
        try (LogReader r = new LogReader(log)) {
            assertThat(readAll(r)).containsExactlyElementsOf(written.subList(0, 2));
            assertThat(r.tornTail()).isTrue();
        }
    }

    @Test
    void damageFollowedByValidRecordsInTheSameBlockIsCorruption() throws IOException {
        write(100, 100, 100, 100);
        long damaged = starts.get(1) + LogFormat.HEADER_SIZE + 5;
        flipByte(damaged);
        try (LogReader r = new LogReader(log)) {
            assertThat(r.next()).isNotNull();
            assertThatThrownBy(r::next)
                    .isInstanceOf(CorruptionException.class)
                    .hasMessageContaining(log.toString())
                    .hasMessageContaining("offset " + starts.get(1))
                    .hasMessageContaining("checksum");
        }
    }

    @Test
    void damagedLengthFieldInTheMiddleIsCorruption() throws IOException {
        write(100, 100, 100);
        flipByte(starts.get(1) + 5); // high byte of the length: the fragment now overruns the block
        try (LogReader r = new LogReader(log)) {
            r.next();
            assertThatThrownBy(r::next).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining("offset " + starts.get(1));
        }
    }

    @Test
    void damageInARecordFollowedByRecordsInLaterBlocksIsCorruption() throws IOException {
        write(3 * LogFormat.BLOCK_SIZE, 50, 50);
        flipByte(starts.get(0) + 20); // first fragment of the big record
        try (LogReader r = new LogReader(log)) {
            assertThatThrownBy(r::next).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining("offset 0");
        }
    }

    @Test
    void emptyLogHasNoRecords() throws IOException {
        write();
        try (LogReader r = new LogReader(log)) {
            assertThat(r.next()).isNull();
            assertThat(r.tornTail()).isFalse();
        }
    }
}
