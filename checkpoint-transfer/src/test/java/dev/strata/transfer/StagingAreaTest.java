package dev.strata.transfer;

import dev.strata.engine.CorruptionException;
import dev.strata.proto.internal.v1.ContentId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static dev.strata.transfer.StagedContent.idOf;
import static dev.strata.transfer.StagedContent.noise;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StagingAreaTest {
    @TempDir
    Path dir;

    private static ByteBuffer slice(byte[] b, int from, int to) {
        return ByteBuffer.wrap(b, from, to - from);
    }

    @Test
    void aFileWrittenInPiecesFinishesWhenItMatchesItsContentId() throws IOException {
        byte[] file = noise(300_000, 1);
        ContentId id = idOf(file);
        StagingArea staging = new StagingArea(dir);
        PartFile part = staging.openPart(id, 0);
        part.append(slice(file, 0, 100_000));
        part.append(slice(file, 100_000, file.length));
        staging.verify(id, part);
        staging.makeDurable(id, part);

        assertThat(staging.complete()).containsKey(id);
        assertThat(Files.readAllBytes(staging.complete().get(id))).isEqualTo(file);
        assertThat(new StagingArea(dir).complete()).as("found again after a restart").containsKey(id);
    }

    /** Every chunk may pass its own CRC and the file still not be the one planned: it is refused and dropped. */
    @Test
    void aFileThatDoesNotMatchItsContentIdIsDeleted() throws IOException {
        byte[] file = noise(200_000, 2);
        ContentId id = idOf(file);
        byte[] other = file.clone();
        other[150_000] ^= 1;
        StagingArea staging = new StagingArea(dir);
        PartFile part = staging.openPart(id, 0);
        part.append(ByteBuffer.wrap(other));

        assertThatThrownBy(() -> staging.verify(id, part)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("the plan says");
        assertThat(staging.complete()).isEmpty();
        assertThat(staging.partials()).isEmpty();
        try (var left = Files.list(dir.resolve("objects"))) {
            assertThat(left.toList()).isEmpty();
        }
    }

    /** A resumed file keeps its verified prefix, loses the half-written chunk after it, and checks whole. */
    @Test
    void aResumedFileCutsItsHalfWrittenTailAndStillChecksWhole() throws IOException {
        byte[] file = noise(3 * (1 << 20) + 17, 3);
        ContentId id = idOf(file);
        StagingArea staging = new StagingArea(dir);
        PartFile first = staging.openPart(id, 0);
        first.append(slice(file, 0, 2 << 20));
        first.append(ByteBuffer.wrap(noise(4096, 4))); // a chunk the break left half-written
        first.close();

        StagingArea restarted = new StagingArea(dir);
        assertThat(restarted.partials()).hasSize(1);
        PartFile resumed = restarted.openPart(id, 2 << 20);
        assertThat(resumed.size()).isEqualTo(2 << 20);
        resumed.append(slice(file, 2 << 20, file.length));
        restarted.verify(id, resumed);
        restarted.makeDurable(id, resumed);

        assertThat(Arrays.equals(Files.readAllBytes(restarted.complete().get(id)), file)).isTrue();
    }

    @Test
    void resumingBeyondWhatIsStagedIsRefused() throws IOException {
        byte[] file = noise(10_000, 5);
        ContentId id = idOf(file);
        StagingArea staging = new StagingArea(dir);
        PartFile part = staging.openPart(id, 0);
        part.append(slice(file, 0, 1000));
        part.close();
        assertThatThrownBy(() -> staging.openPart(id, 5000)).isInstanceOf(IOException.class)
                .hasMessageContaining("resumes at 5000");
    }
}
