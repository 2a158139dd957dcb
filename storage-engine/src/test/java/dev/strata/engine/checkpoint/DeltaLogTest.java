package dev.strata.engine.checkpoint;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.version.DeltaContents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeltaLogTest {
    @TempDir
    Path dir;

    private static final List<Delta> THREE = List.of(
            new DeltaContents(0, 5, null, List.of(), List.of()),
            new DeltaContents(5, 9, null, List.of(), List.of()),
            new DeltaContents(9, 12, new byte[] {1, 2}, List.of(), List.of()));

    @Test
    void deltasComeBackInTheOrderWritten() throws Exception {
        Path file = dir.resolve("DELTAS");
        DeltaLog.write(file, THREE);

        for (List<Delta> read : List.of(DeltaLog.read(file), DeltaLog.readWhole(file))) {
            assertThat(read).extracting(Delta::fromExclusive).containsExactly(0L, 5L, 9L);
            assertThat(read).extracting(Delta::toInclusive).containsExactly(5L, 9L, 12L);
            assertThat(read.get(2).appliedMarker()).containsExactly(1, 2);
        }
    }

    @Test
    void aTornTailEndsAnAppendedListButIsDamageInAFileWrittenWhole() throws Exception {
        Path file = dir.resolve("DELTAS");
        DeltaLog.write(file, THREE);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 3); // the last record cut short
        }

        assertThat(DeltaLog.read(file)).extracting(Delta::toInclusive).containsExactly(5L, 9L);
        assertThatThrownBy(() -> DeltaLog.readWhole(file)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("ends torn");
    }
}
