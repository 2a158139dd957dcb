package dev.strata.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** readwhilewriting as {@link BenchmarkRunner} runs it, on an in-memory target. */
class ReadWhileWritingTest {
    @TempDir
    Path dir;

    @Test
    void theReadsAreTheOpsAndTheWritersPutsAreCountedApart() throws Exception {
        MemoryTarget target = new MemoryTarget();
        Workload workload = new Workload(1_000, 64, 0.5, 20_000, 1, 2, 1, 42, 0);
        BenchmarkRunner runner = new BenchmarkRunner(target, dir, workload, false);
        runner.run(Benchmark.FILLSEQ);
        long putsBefore = target.puts.get();

        BenchmarkResult result = runner.run(Benchmark.READWHILEWRITING);

        assertThat(result.ops()).isEqualTo(20_000);
        assertThat(result.threads()).isEqualTo(2);
        assertThat(result.found()).isEqualTo(20_000); // every key was filled first
        assertThat(target.gets.get()).isEqualTo(20_000);
        assertThat(result.writesBeside()).isEqualTo(target.puts.get() - putsBefore).isPositive();
        assertThat(result.disk().userBytes()).isEqualTo(result.writesBeside() * (Keys.SIZE + 64));
    }

    @Test
    void aWriteRateKeepsTheWriterToItsSchedule() throws Exception {
        MemoryTarget target = new MemoryTarget();
        // 100 puts per second: whatever the reads take, the writer is never ahead of its schedule
        // (the first put goes at once, before the reads start, one more per 10 ms after it). The
        // bound allows half a second for the reader threads' start and end; a writer without the
        // limit makes tens of thousands of puts in that time.
        Workload workload = new Workload(1_000, 64, 0.5, 200_000, 1, 1, 1, 42, 100);
        BenchmarkRunner runner = new BenchmarkRunner(target, dir, workload, false);

        BenchmarkResult result = runner.run(Benchmark.READWHILEWRITING);

        assertThat(result.writesBeside()).isPositive()
                .isLessThanOrEqualTo(1 + (long) Math.floor((result.seconds() + 0.5) * 100));
    }

    /** A sorted map as the engine: enough for the runner, with counts of the calls. */
    private static final class MemoryTarget implements BenchTarget {
        final ConcurrentSkipListMap<byte[], byte[]> data = new ConcurrentSkipListMap<>(java.util.Arrays::compare);
        final AtomicLong puts = new AtomicLong();
        final AtomicLong gets = new AtomicLong();

        @Override
        public String name() {
            return "memory";
        }

        @Override
        public Map<String, Object> settings() {
            return Map.of();
        }

        @Override
        public void put(byte[] key, byte[] value) {
            puts.incrementAndGet();
            data.put(key, value);
        }

        @Override
        public byte[] get(byte[] key) {
            gets.incrementAndGet();
            return data.get(key);
        }

        @Override
        public Cursor scan(byte[] fromInclusive) {
            throw new UnsupportedOperationException("not used here");
        }

        @Override
        public void flush() {}

        @Override
        public void compact() {}

        @Override
        public void waitForBackgroundWork() {}

        @Override
        public StorageStats stats() {
            return new StorageStats(1, 1, 0, 0, 0, 0, 0, 0, List.of(), Map.of());
        }

        @Override
        public void close() {}
    }
}
