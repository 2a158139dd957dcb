package dev.strata.engine.version;

import dev.strata.engine.key.InternalKey;
import dev.strata.engine.key.ValueType;
import dev.strata.engine.util.ByteReader;
import dev.strata.engine.util.ByteSink;
import dev.strata.engine.vlog.ValueLogFileMetadata;
import dev.strata.engine.vlog.ValueLogId;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VersionEditTest {
    static FileMetadata file(long number, String from, String to) {
        return new FileMetadata(number, 1000 + number,
                new InternalKey(from.getBytes(StandardCharsets.UTF_8), 5, ValueType.VALUE).encode(),
                new InternalKey(to.getBytes(StandardCharsets.UTF_8), 9, ValueType.DELETION).encode(), 5, 9, 42, 4096, List.of(), 0x1234);
    }

    @Test
    void everyFieldRoundTrips() {
        ValueLogId log = new ValueLogId(0xfedcba9876543210L, 12);
        FileMetadata withPointers = new FileMetadata(11, 5000, file(11, "n", "z").smallest(), file(11, "n", "z").largest(),
                1, 2, 3, 4, List.of(log, new ValueLogId(1, 2)), -77);
        VersionEdit edit = VersionEdit.builder().logNumber(7).nextFileNumber(99).lastSequence(123456789L)
                .appliedMarker(new byte[] {1, 2, 3}).deleteFile(0, 4).deleteFile(2, 5)
                .addFile(1, file(10, "a", "m")).addFile(3, withPointers).origin(-5L)
                .addValueLog(new ValueLogFileMetadata(log, 4096, 3, 4064, 0xabcdef)).addGarbage(log, 100)
                .deleteValueLog(new ValueLogId(7, 8)).build();
        VersionEdit decoded = VersionEdit.decode(edit.encode());
        assertThat(decoded).isEqualTo(edit);
        assertThat(decoded.toString()).contains("log=7").contains("-L2#5").contains("+L3#11");
    }

    @Test
    void provisionalBytesRoundTripAndReadAsZeroFromAnOlderManifest() {
        ValueLogId log = new ValueLogId(3, 4);
        VersionEdit withProvisional = VersionEdit.builder()
                .addValueLog(new ValueLogFileMetadata(log, 4096, 3, 4064, 7, 1500)).build();
        assertThat(VersionEdit.decode(withProvisional.encode())).isEqualTo(withProvisional);

        // An older manifest's value-log field ends after the file's CRC.
        byte[] older = new ByteSink().putVarint(8)
                .putLengthPrefixed(new ByteSink().putLong(3).putVarint(4).putVarint(4096).putVarint(3).putVarint(4064)
                        .putInt(7).toByteArray())
                .toByteArray();
        assertThat(VersionEdit.decode(older).newValueLogs())
                .containsExactly(new ValueLogFileMetadata(log, 4096, 3, 4064, 7, 0));
    }

    @Test
    void emptyEditRoundTrips() {
        VersionEdit edit = VersionEdit.builder().build();
        assertThat(edit.encode()).isEmpty();
        assertThat(VersionEdit.decode(edit.encode())).isEqualTo(edit);
    }

    @Test
    void unknownOrTruncatedFieldsAreMalformed() {
        byte[] unknown = new ByteSink().putVarint(77).putVarint(1).put((byte) 0).toByteArray();
        assertThatThrownBy(() -> VersionEdit.decode(unknown)).isInstanceOf(ByteReader.MalformedException.class)
                .hasMessageContaining("77");
        byte[] full = VersionEdit.builder().addFile(1, file(10, "a", "b")).build().encode();
        byte[] cut = java.util.Arrays.copyOf(full, full.length - 3);
        assertThatThrownBy(() -> VersionEdit.decode(cut)).isInstanceOf(ByteReader.MalformedException.class);
    }
}
