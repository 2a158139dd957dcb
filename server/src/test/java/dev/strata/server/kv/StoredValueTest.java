package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import dev.strata.engine.EngineException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoredValueTest {
    @Test
    void roundTripsRevisionsAndValue() {
        StoredValue v = new StoredValue(7, 42, 3, ByteString.copyFromUtf8("hello"));
        byte[] stored = v.encode();
        assertThat(stored).hasSize(StoredValue.HEADER_SIZE + 5);
        assertThat(StoredValue.decode("k".getBytes(), stored)).isEqualTo(v);
    }

    @Test
    void firstPutStartsAtVersionOneAndLaterPutsKeepTheCreation() {
        StoredValue first = StoredValue.afterPut(null, 10, ByteString.copyFromUtf8("a"));
        assertThat(first).isEqualTo(new StoredValue(10, 10, 1, ByteString.copyFromUtf8("a")));
        StoredValue second = StoredValue.afterPut(first.revisions(), 15, ByteString.copyFromUtf8("b"));
        assertThat(second).isEqualTo(new StoredValue(10, 15, 2, ByteString.copyFromUtf8("b")));
    }

    @Test
    void shortOrUnknownBytesAreCorruptionNamingTheKey() {
        assertThatThrownBy(() -> StoredValue.decode("key".getBytes(), new byte[3]))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("stored value of key \"key\"")
                .satisfies(e -> assertThat(((EngineException) e).code()).isEqualTo(EngineException.Code.CORRUPTION));
        byte[] wrongFormat = new StoredValue(1, 1, 1, ByteString.EMPTY).encode();
        wrongFormat[0] = 9;
        assertThatThrownBy(() -> StoredValue.decode("key".getBytes(), wrongFormat)).isInstanceOf(EngineException.class);
    }
}
