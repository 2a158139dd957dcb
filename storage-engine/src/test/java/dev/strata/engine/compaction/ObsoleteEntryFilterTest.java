package dev.strata.engine.compaction;

import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ObsoleteEntryFilterTest {
    private static byte[] k(String key, long seq, ValueType type) {
        return new InternalKey(key.getBytes(StandardCharsets.UTF_8), seq, type).encode();
    }

    @Test
    void olderVersionsHiddenFromEveryReaderAreDropped() {
        ObsoleteEntryFilter f = new ObsoleteEntryFilter(100, key -> false);
        assertThat(f.keep(k("a", 30, ValueType.VALUE))).isTrue();
        assertThat(f.keep(k("a", 20, ValueType.VALUE))).isFalse();
        assertThat(f.keep(k("a", 10, ValueType.DELETION))).isFalse();
        assertThat(f.keep(k("b", 5, ValueType.VALUE))).as("a new key starts over").isTrue();
        assertThat(f.droppedEntries()).isEqualTo(2);
    }

    @Test
    void versionsASnapshotCanSeeAreKept() {
        ObsoleteEntryFilter f = new ObsoleteEntryFilter(25, key -> true); // a snapshot at 25
        assertThat(f.keep(k("a", 30, ValueType.VALUE))).as("newer than the snapshot").isTrue();
        assertThat(f.keep(k("a", 20, ValueType.VALUE))).as("what the snapshot sees").isTrue();
        assertThat(f.keep(k("a", 10, ValueType.VALUE))).as("hidden from the snapshot by 20").isFalse();
    }

    @Test
    void tombstonesAreDroppedOnlyAtTheKeysBaseLevel() {
        ObsoleteEntryFilter base = new ObsoleteEntryFilter(100, key -> true);
        assertThat(base.keep(k("a", 50, ValueType.DELETION))).isFalse();
        ObsoleteEntryFilter notBase = new ObsoleteEntryFilter(100, key -> false);
        assertThat(notBase.keep(k("a", 50, ValueType.DELETION))).as("an older version may lie deeper").isTrue();
        ObsoleteEntryFilter snapshotBefore = new ObsoleteEntryFilter(40, key -> true);
        assertThat(snapshotBefore.keep(k("a", 50, ValueType.DELETION))).as("a snapshot at 40 must not see it yet").isTrue();
    }
}
