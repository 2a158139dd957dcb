package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyRangeTest {
    private static ByteString b(String s) {
        return ByteString.copyFromUtf8(s);
    }

    @Test
    void singleKeyIsTheKeyAndItsSuccessor() {
        KeyRange r = KeyRange.select(b("a"), ByteString.EMPTY, false);
        assertThat(r.single()).isTrue();
        assertThat(r.contains("a".getBytes())).isTrue();
        assertThat(r.contains("a\0".getBytes())).isFalse();
    }

    @Test
    void prefixEndsAtTheNextPrefix() {
        KeyRange r = KeyRange.select(b("ab"), ByteString.EMPTY, true);
        assertThat(r.to()).isEqualTo("ac".getBytes());
        assertThat(r.contains("ab\u007f".getBytes())).isTrue();
        assertThat(r.contains("ac".getBytes())).isFalse();
    }

    @Test
    void prefixOfAllOnesHasNoEnd() {
        KeyRange r = KeyRange.select(ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xff}), ByteString.EMPTY, true);
        assertThat(r.to()).isNull();
        assertThat(KeyRange.prefixEnd(new byte[] {1, (byte) 0xff})).containsExactly(2);
    }

    @Test
    void emptyPrefixSelectsEverything() {
        KeyRange r = KeyRange.select(ByteString.EMPTY, ByteString.EMPTY, true);
        assertThat(r.from()).isEmpty();
        assertThat(r.to()).isNull();
    }

    @Test
    void zeroByteRangeEndMeansNoEnd() {
        KeyRange r = KeyRange.select(b("m"), ByteString.copyFrom(new byte[] {0}), false);
        assertThat(r.to()).isNull();
        assertThat(r.contains("zzz".getBytes())).isTrue();
        assertThat(r.contains("a".getBytes())).isFalse();
    }

    @Test
    void rangeEndMustBeAfterKey() {
        assertThatThrownBy(() -> KeyRange.select(b("b"), b("a"), false))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("range_end \"a\" must be greater than key \"b\"");
        assertThatThrownBy(() -> KeyRange.select(b("b"), b("b"), false)).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void prefixAndRangeEndAreExclusive() {
        assertThatThrownBy(() -> KeyRange.select(b("a"), b("b"), true))
                .isInstanceOf(InvalidRequestException.class).hasMessage("prefix and range_end cannot both be set");
    }

    @Test
    void emptySingleKeyIsRejected() {
        assertThatThrownBy(() -> KeyRange.select(ByteString.EMPTY, ByteString.EMPTY, false))
                .isInstanceOf(InvalidRequestException.class).hasMessage("key must not be empty");
    }

    @Test
    void keysOver64KiBAreRejectedNamingTheLimit() {
        ByteString big = ByteString.copyFrom(new byte[Limits.MAX_KEY_SIZE + 1]);
        assertThatThrownBy(() -> KeyRange.select(big, ByteString.EMPTY, false))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("key is 65537 bytes, the limit is 65536 bytes (64 KiB)");
        KeyRange.checkSingleKey("key", ByteString.copyFrom(new byte[Limits.MAX_KEY_SIZE]));
    }
}
