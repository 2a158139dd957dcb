package dev.strata.engine;

import dev.strata.engine.version.FileNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static dev.strata.engine.testing.TestKeys.key;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An open with {@link EngineOptions#avoidFlushDuringRecovery} serves what it replayed from
 * memory and flushes it in the background; until that flush commits, the replayed logs stay, so
 * a crash then loses nothing, and the durable marker stays where the manifest had it.
 */
class RecoveryFlushTest {
    /** Separated into a value log, so a flush announces itself through the event listener. */
    private static final byte[] VALUE = new byte[2048];

    @TempDir
    Path dir;
    @TempDir
    Path crashImage;

    private static byte[] marker(int i) {
        return ("marker-" + i).getBytes();
    }

    @Test
    void theReplayedLogsStayUntilTheBackgroundFlushCommits() throws Exception {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            for (int i = 0; i < 100; i++) {
                db.write(new WriteBatch().put(key(i), VALUE).setAppliedMarker(marker(i)));
            }
        } // closing leaves the writes in the log
        List<Path> replayed = logs(dir);
        assertThat(replayed).isNotEmpty();

        CountDownLatch flushHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        EngineOptions deferring = EngineOptions.builder().avoidFlushDuringRecovery(true)
                .eventListener(new EngineEventListener() {
                    @Override
                    public void onValueLogFileCreated(ValueLogFileCreated event) {
                        flushHeld.countDown();
                        awaitQuietly(release);
                    }
                }).build();
        try (Engine db = Engine.open(dir, deferring)) {
            flushHeld.await(); // the background flush has written its files and waits before its commit
            for (int i = 0; i < 100; i++) {
                assertThat(db.get(key(i))).isEqualTo(VALUE);
            }
            assertThat(db.appliedMarker()).as("nothing replayed is durable in a table yet").isNull();
            assertThat(db.newestAppliedMarker()).isEqualTo(marker(99));
            db.write(new WriteBatch().put(key(100), VALUE).setAppliedMarker(marker(100)));
            assertThat(db.newestAppliedMarker()).isEqualTo(marker(100));
            assertThat(logs(dir)).containsAll(replayed);

            copyFiles(dir, crashImage); // a crash now: the flush's outputs are orphans, the logs hold everything

            release.countDown();
            db.waitForCompactions();
            assertThat(db.appliedMarker()).isEqualTo(marker(99));
            assertThat(logs(dir)).doesNotContainAnyElementsOf(replayed);
        }

        try (Engine db = Engine.open(crashImage, EngineOptions.defaults())) {
            for (int i = 0; i <= 100; i++) {
                assertThat(db.get(key(i))).as("key %d after a crash before the flush", i).isEqualTo(VALUE);
            }
            assertThat(db.appliedMarker()).as("this open flushed what it replayed").isEqualTo(marker(100));
        }
    }

    @Test
    void withoutTheOptionTheOpenFlushesBeforeItReturns() throws Exception {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            db.write(new WriteBatch().put(key(1), VALUE).setAppliedMarker(marker(1)));
        }
        List<Path> replayed = logs(dir);
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            assertThat(db.appliedMarker()).isEqualTo(marker(1));
            assertThat(db.newestAppliedMarker()).isEqualTo(marker(1));
            assertThat(logs(dir)).doesNotContainAnyElementsOf(replayed);
        }
    }

    private static List<Path> logs(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> {
                FileNames.Parsed f = FileNames.parse(p.getFileName().toString());
                return f != null && f.kind() == FileNames.Kind.WAL;
            }).sorted().toList();
        }
    }

    /** Copies the files (not the LOCK's lock) of an open engine's directory: what a crash would leave. */
    private static void copyFiles(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.list(from)) {
            s.filter(Files::isRegularFile).forEach(p -> {
                try {
                    Files.copy(p, to.resolve(p.getFileName()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
