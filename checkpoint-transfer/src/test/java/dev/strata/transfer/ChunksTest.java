package dev.strata.transfer;

import dev.strata.proto.internal.v1.Chunk;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChunksTest {
    private static byte[] text(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) ('a' + (i / 7) % 13);
        }
        return b;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static byte[] noise(int length) {
        byte[] b = new byte[length];
        new Random(5).nextBytes(b);
        return b;
    }

    @Test
    void compressibleChunksTravelCompressedAndOthersRaw() {
        for (int length : new int[] {1000, Chunks.SIZE}) {
            byte[] text = text(length);
            Chunk c = Chunks.encode(0, 0, text, length);
            assertThat(c.getCodec()).as("%d compressible bytes", length).isEqualTo(Chunk.Codec.ZSTD);
            assertThat(c.getData().size()).isLessThan(length / 2);
            assertThat(bytes(Chunks.decode(c))).isEqualTo(text);

            byte[] noise = noise(length);
            Chunk r = Chunks.encode(0, 0, noise, length);
            assertThat(r.getCodec()).as("%d random bytes", length).isEqualTo(Chunk.Codec.NONE);
            assertThat(bytes(Chunks.decode(r))).isEqualTo(noise);
        }
    }

    /** The probe judges a large chunk by its middle: compressible there, it is compressed whole. */
    @Test
    void aLargeChunkIsJudgedByItsMiddle() {
        byte[] mixed = noise(Chunks.SIZE);
        byte[] middle = text(Chunks.SIZE / 2);
        System.arraycopy(middle, 0, mixed, Chunks.SIZE / 4, middle.length);
        Chunk c = Chunks.encode(3, 1 << 20, mixed, mixed.length);
        assertThat(c.getCodec()).isEqualTo(Chunk.Codec.ZSTD);
        assertThat(bytes(Chunks.decode(c))).isEqualTo(mixed);

        byte[] noisyMiddle = text(Chunks.SIZE);
        byte[] n = noise(4 * Chunks.PROBE);
        System.arraycopy(n, 0, noisyMiddle, (Chunks.SIZE - n.length) / 2, n.length);
        assertThat(Chunks.encode(3, 0, noisyMiddle, noisyMiddle.length).getCodec()).as("not worth it in the middle")
                .isEqualTo(Chunk.Codec.NONE);
    }

    @Test
    void aDamagedChunkIsRejected() {
        byte[] text = text(5000);
        Chunk c = Chunks.encode(1, 0, text, text.length);
        byte[] data = c.getData().toByteArray();
        data[data.length / 2] ^= 1;
        Chunk damaged = c.toBuilder().setData(com.google.protobuf.ByteString.copyFrom(data)).build();
        assertThatThrownBy(() -> Chunks.decode(damaged)).isInstanceOf(Chunks.CorruptChunkException.class);
        Chunk wrongCrc = c.toBuilder().setCrc32C(c.getCrc32C() ^ 1).build();
        assertThatThrownBy(() -> Chunks.decode(wrongCrc)).isInstanceOf(Chunks.CorruptChunkException.class)
                .hasMessageContaining("CRC");
        assertThat(bytes(Chunks.decode(c))).isEqualTo(text);
    }
}
