package dev.strata.engine.compaction;

import dev.strata.engine.EngineOptions;
import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.version.FileMetadata;
import dev.strata.engine.version.FileNames;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BacklogTest {
    @TempDir
    Path dir;

    private final EngineOptions options = EngineOptions.builder().level0CompactionTrigger(4).build();

    private VersionSet withLevel0Files(int n) throws IOException {
        VersionSet vs = VersionSet.open(dir, dir, 7, 1 << 20);
        VersionEdit.Builder edit = VersionEdit.builder();
        for (int i = 1; i <= n; i++) {
            byte[] key = new InternalKey("k".getBytes(StandardCharsets.UTF_8), i, ValueType.VALUE).encode();
            edit.addFile(0, new FileMetadata(i, 100, key, key, i, i, 1, 100, List.of(), 0));
            Files.write(FileNames.table(dir, i), new byte[100]);
        }
        vs.logAndApply(edit.build());
        return vs;
    }

    @Test
    void aFlushIsBehindWhenMemtablesWaitL0IsFullOrWritesOutranTheLastFlush() throws IOException {
        try (VersionSet three = withLevel0Files(3)) {
            assertThat(Backlog.flushBehind(1, three.current(), options, 0.1)).isFalse();
            assertThat(Backlog.flushBehind(2, three.current(), options, 0.1)).as("two memtables waited").isTrue();
            assertThat(Backlog.flushBehind(1, three.current(), options, Backlog.FAST_WRITES_FILL))
                    .as("a quarter of a memtable filled during the last flush").isTrue();
        }
        try (VersionSet four = withLevel0Files(4)) {
            assertThat(Backlog.flushBehind(1, four.current(), options, 0)).as("L0 at its compaction trigger").isTrue();
        }
    }

    @Test
    void recompressionWaitsForIdlenessUnlessSomeoneWaitsForTheEngineToSettle() {
        long longAgo = Backlog.IDLE_AFTER_FLUSH_NANOS;
        assertThat(Backlog.idle(0, false, 0, longAgo, false)).isTrue();
        assertThat(Backlog.idle(0, false, 0, longAgo - 1, false)).as("a flush too recent").isFalse();
        assertThat(Backlog.idle(0, false, 0, 0, true)).as("a waiter for settled work").isTrue();
        assertThat(Backlog.idle(1, false, 0, longAgo, true)).as("a memtable waits").isFalse();
        assertThat(Backlog.idle(0, true, 0, longAgo, true)).as("a flush runs").isFalse();
        assertThat(Backlog.idle(0, false, 1, longAgo, true)).as("a compaction runs").isFalse();
    }
}
