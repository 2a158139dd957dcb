package dev.strata.engine;

import dev.strata.engine.compress.CompressionPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static dev.strata.engine.testing.TestKeys.key;
import static org.assertj.core.api.Assertions.assertThat;

/** The adaptive compression policy end to end: LZ4 while behind, zstd once calm, nothing lost. */
class AdaptiveCompressionTest {
    /** Puts tried before giving up on a flush that falls behind: far more than it takes. */
    private static final int MAX_PUTS = 200_000;

    @TempDir
    Path dir;

    private static EngineOptions options() {
        return ValueLogEngineTest.options().toBuilder().compressionPolicy(CompressionPolicy.adaptive()).build();
    }

    /** A 2 KiB value that compresses well, different per key and round. */
    private static byte[] value(int i) {
        byte[] v = new byte[2048];
        for (int j = 0; j < v.length; j++) {
            v[j] = (byte) ('a' + (j / 16 + i) % 7);
        }
        Arrays.fill(v, 0, 8, (byte) i);
        return v;
    }

    @Test
    void valuesFlushedWhileBehindAreRecompressedOnceCalmAndStayReadable() {
        NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (Engine db = Engine.open(dir, options())) {
            // Puts go far faster than flushes that compress 2 KiB values: memtables queue up, so
            // some flush takes more than one and stores its values with LZ4, provisionally.
            long provisionalSeen = 0;
            for (int i = 0; i < MAX_PUTS && provisionalSeen == 0; i++) {
                byte[] k = key(i % 3000);
                byte[] v = value(i);
                db.put(k, v);
                model.put(k, v);
                if (i % 500 == 499) {
                    provisionalSeen = db.stats().valueLogProvisionalBytes();
                }
            }
            assertThat(provisionalSeen).as("some flush fell behind within %d puts", MAX_PUTS).isPositive();

            db.waitForCompactions();

            EngineStats settled = db.stats();
            assertThat(settled.valueLogProvisionalBytes()).as("every provisional record recompressed").isZero();
            assertThat(settled.valueLogRecompressedBytes()).isPositive();
            expectModel(db, model);
        }
        try (Engine db = Engine.open(dir, options())) {
            // The open flushes what it replayed from the log provisionally (everything waits for it).
            expectModel(db, model);
            db.waitForCompactions();
            assertThat(db.stats().valueLogProvisionalBytes()).isZero();
            expectModel(db, model);
        }
    }

    @Test
    void anIdleEngineRecompressesWhatItsOpenFlushedWithoutBeingAsked() throws InterruptedException {
        NavigableMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        EngineOptions noFlushes = options().toBuilder().writeBufferSize(64L << 20).build();
        try (Engine db = Engine.open(dir, noFlushes)) {
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), value(i));
                model.put(key(i), value(i));
            }
        } // closed without a flush: the writes are in the log only
        try (Engine db = Engine.open(dir, noFlushes)) {
            assertThat(db.stats().valueLogProvisionalBytes()).as("the open flushed the replayed log with LZ4").isPositive();
            // Nothing is written and nobody waits for the engine: recompression starts by itself
            // once writes have paused (5 s after the last flush). Polled; the deadline only stops
            // a broken engine from hanging the build.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (db.stats().valueLogProvisionalBytes() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(db.stats().valueLogProvisionalBytes()).isZero();
            assertThat(db.stats().valueLogRecompressedBytes()).isPositive();
            expectModel(db, model);
        }
    }

    @Test
    void aFixedPolicyNeverWritesProvisionalRecords() {
        try (Engine db = Engine.open(dir, ValueLogEngineTest.options())) {
            for (int i = 0; i < 20_000; i++) {
                db.put(key(i % 3000), value(i));
            }
            db.waitForCompactions();
            assertThat(db.stats().valueLogProvisionalBytes()).isZero();
            assertThat(db.stats().valueLogRecompressedBytes()).isZero();
        }
    }

    private static void expectModel(Engine db, NavigableMap<byte[], byte[]> model) {
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
            assertThat(db.get(e.getKey())).isEqualTo(e.getValue());
        }
    }
}
