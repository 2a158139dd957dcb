package dev.strata.transfer;

import dev.strata.engine.CorruptionException;
import dev.strata.proto.internal.v1.ContentId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static dev.strata.transfer.StagedContent.idOf;
import static dev.strata.transfer.StagedContent.noise;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FinishingFilesTest {
    @TempDir
    Path dir;

    private final ExecutorService fsyncs = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        fsyncs.shutdownNow();
    }

    private static PartFile written(StagingArea staging, byte[] content) throws IOException {
        PartFile part = staging.openPart(idOf(content), 0);
        part.append(ByteBuffer.wrap(content));
        return part;
    }

    @Test
    void moreFilesThanMayBePendingAreAllFinishedOnceAwaited() throws IOException {
        StagingArea staging = new StagingArea(dir);
        FinishingFiles finishing = new FinishingFiles(staging, fsyncs);
        List<byte[]> files = new ArrayList<>();
        for (int i = 0; i < 3 * FinishingFiles.MAX_PENDING; i++) {
            byte[] content = noise(50_000 + i, i);
            files.add(content);
            finishing.finish(idOf(content), written(staging, content));
        }
        finishing.awaitAll();

        assertThat(staging.complete()).hasSize(files.size());
        for (byte[] content : files) {
            assertThat(Files.readAllBytes(staging.complete().get(idOf(content)))).isEqualTo(content);
        }
        assertThat(staging.partials()).isEmpty();
        assertThat(new StagingArea(dir).complete()).as("found again after a restart").hasSize(files.size());
    }

    @Test
    void aFileThatDoesNotMatchIsRefusedAtOnceAndDeleted() throws IOException {
        StagingArea staging = new StagingArea(dir);
        FinishingFiles finishing = new FinishingFiles(staging, fsyncs);
        byte[] content = noise(20_000, 7);
        byte[] other = content.clone();
        other[10_000] ^= 1;
        PartFile part = staging.openPart(idOf(content), 0);
        part.append(ByteBuffer.wrap(other));

        assertThatThrownBy(() -> finishing.finish(idOf(content), part)).isInstanceOf(CorruptionException.class);
        finishing.awaitAll();
        assertThat(staging.complete()).isEmpty();
        try (var left = Files.list(dir.resolve("objects"))) {
            assertThat(left.toList()).isEmpty();
        }
    }

    /** A file whose fsync fails is not finished, and the wait reports the failure. */
    @Test
    void aFailedFsyncFailsTheWaitAndLeavesTheFileUnfinished() throws IOException {
        StagingArea staging = new StagingArea(dir);
        FinishingFiles finishing = new FinishingFiles(staging, fsyncs);
        byte[] good = noise(30_000, 8);
        byte[] bad = noise(30_000, 9);
        finishing.finish(idOf(good), written(staging, good));
        PartFile broken = written(staging, bad);
        broken.close(); // its fsync will fail: the channel is closed
        finishing.finish(idOf(bad), broken);

        assertThatThrownBy(finishing::awaitAll).isInstanceOf(ClosedChannelException.class);
        finishing.awaitAll();
        assertThat(staging.complete()).containsOnlyKeys(idOf(good));
        try (var left = Files.list(dir.resolve("objects"))) {
            assertThat(left.toList()).as("the unfinished file is dropped too").containsExactly(staging.complete().get(idOf(good)));
        }
    }

    @Test
    void afterAnEarlyEndTheWaitAddsPendingFailuresToTheCause() throws IOException {
        StagingArea staging = new StagingArea(dir);
        FinishingFiles finishing = new FinishingFiles(staging, fsyncs);
        byte[] bad = noise(30_000, 10);
        PartFile broken = written(staging, bad);
        broken.close();
        finishing.finish(idOf(bad), broken);
        IOException cause = new IOException("the stream broke");

        finishing.awaitAfter(cause);

        assertThat(cause.getSuppressed()).singleElement().isInstanceOf(ClosedChannelException.class);
        assertThat(staging.complete()).isEmpty();
    }
}
