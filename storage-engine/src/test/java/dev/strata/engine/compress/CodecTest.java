package dev.strata.engine.compress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CodecTest {
    private static byte[] compressible(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ("the quick brown fox ".charAt(i % 20) + (i / 1000));
        }
        return b;
    }

    private static byte[] incompressible(int n) {
        byte[] b = new byte[n];
        new Random(42).nextBytes(b);
        return b;
    }

    @Test
    void idsNeverChange() {
        assertThat(Codec.NONE.id()).isEqualTo((byte) 0);
        assertThat(Codec.SNAPPY.id()).isEqualTo((byte) 1);
        assertThat(Codec.LZ4.id()).isEqualTo((byte) 2);
        assertThat(Codec.ZSTD.id()).isEqualTo((byte) 3);
        for (Codec c : Codec.values()) {
            assertThat(Codec.fromId(c.id())).isSameAs(c);
        }
        assertThatThrownBy(() -> Codec.fromId(9)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("9");
    }

    @ParameterizedTest
    @EnumSource(value = Codec.class, names = {"SNAPPY", "LZ4", "ZSTD"})
    void compressibleDataRoundTripsAtEverySize(Codec codec) {
        for (int n : new int[] {64, 1000, 16 * 1024, 1 << 20}) {
            byte[] raw = compressible(n);
            byte[] packed = codec.compress(raw, 0, raw.length, 3);
            assertThat(packed).as(codec + " " + n).isNotNull();
            assertThat(packed.length).isLessThanOrEqualTo(n - n / 8);
            assertThat(codec.decompress(packed, 0, packed.length)).isEqualTo(raw);
        }
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void incompressibleAndEmptyInputIsLeftRaw(Codec codec) {
        byte[] random = incompressible(16 * 1024);
        assertThat(codec.compress(random, 0, random.length, 3)).isNull();
        assertThat(codec.compress(new byte[0], 0, 0, 3)).isNull();
    }

    @ParameterizedTest
    @EnumSource(value = Codec.class, names = {"SNAPPY", "LZ4", "ZSTD"})
    void compressesASliceOfALargerArray(Codec codec) {
        byte[] raw = compressible(10_000);
        byte[] framed = new byte[raw.length + 20];
        System.arraycopy(raw, 0, framed, 7, raw.length);
        byte[] packed = codec.compress(framed, 7, raw.length, 3);
        byte[] shifted = new byte[packed.length + 5];
        System.arraycopy(packed, 0, shifted, 5, packed.length);
        assertThat(codec.decompress(shifted, 5, packed.length)).isEqualTo(raw);
    }

    @Test
    void noneDecompressIsACopy() {
        byte[] raw = {1, 2, 3, 4};
        assertThat(Codec.NONE.decompress(raw, 1, 2)).isEqualTo(new byte[] {2, 3});
        assertThat(Codec.NONE.decompress(new byte[0], 0, 0)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = Codec.class, names = {"SNAPPY", "LZ4", "ZSTD"})
    void damagedInputIsRejectedNotMisread(Codec codec) {
        byte[] raw = compressible(8192);
        byte[] packed = codec.compress(raw, 0, raw.length, 3);
        byte[] truncated = Arrays.copyOf(packed, packed.length / 2);
        assertThatThrownBy(() -> codec.decompress(truncated, 0, truncated.length))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] hugeLength = packed.clone();
        hugeLength[0] = (byte) 0xFF;
        hugeLength[1] = (byte) 0xFF;
        hugeLength[2] = (byte) 0xFF;
        hugeLength[3] = (byte) 0x7F;
        assertThatThrownBy(() -> codec.decompress(hugeLength, 0, hugeLength.length))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Text-like data: random words from a small vocabulary, where stronger levels find more. */
    private static byte[] words(int n) {
        String[] vocabulary = {"strata", "level", "block", "value", "log", "compaction", "key", "table", "raft", "node"};
        Random rnd = new Random(7);
        StringBuilder s = new StringBuilder();
        while (s.length() < n) {
            s.append(vocabulary[rnd.nextInt(vocabulary.length)]).append(rnd.nextInt(100)).append(' ');
        }
        return s.substring(0, n).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Test
    void zstdLevelIsUsed() {
        byte[] raw = words(256 * 1024);
        byte[] fast = Codec.ZSTD.compress(raw, 0, raw.length, 1);
        byte[] strong = Codec.ZSTD.compress(raw, 0, raw.length, 19);
        assertThat(strong.length).isLessThan(fast.length);
        assertThat(Codec.ZSTD.decompress(strong, 0, strong.length)).isEqualTo(raw);
    }
}
