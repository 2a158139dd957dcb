package dev.strata.engine.sst;

import dev.strata.engine.util.ByteSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BlockTest {
    private static final Comparator<byte[]> BYTES = Arrays::compareUnsigned;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Block build(int restartInterval, int n) {
        BlockBuilder builder = new BlockBuilder(restartInterval);
        for (int i = 0; i < n; i++) {
            builder.add(b(String.format("key-%05d", i * 2)), b("value" + i));
        }
        ByteSink out = builder.finish();
        return new Block(out.toByteArray(), BYTES);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 16, 1000})
    void iteratesAndSeeksWithAnyRestartInterval(int restartInterval) {
        Block block = build(restartInterval, 300);
        Block.BlockIterator it = block.iterator();
        int i = 0;
        for (it.seekToFirst(); it.valid(); it.next()) {
            assertThat(it.key()).isEqualTo(b(String.format("key-%05d", i * 2)));
            assertThat(it.value()).isEqualTo(b("value" + i));
            i++;
        }
        assertThat(i).isEqualTo(300);
        for (int k = 0; k < 600; k++) {
            it.seek(b(String.format("key-%05d", k)));
            int expect = (k + 1) / 2; // odd keys are absent: land on the next even one
            assertThat(it.valid()).isEqualTo(expect < 300);
            if (expect < 300) {
                assertThat(it.key()).isEqualTo(b(String.format("key-%05d", expect * 2)));
            }
        }
        it.seek(b("a"));
        assertThat(it.key()).isEqualTo(b("key-00000"));
        it.seek(b("z"));
        assertThat(it.valid()).isFalse();
    }

    @Test
    void sharedPrefixesAreStoredOnce() {
        BlockBuilder builder = new BlockBuilder(16);
        for (int i = 0; i < 16; i++) {
            builder.add(b("a-very-long-common-prefix-" + (char) ('a' + i)), new byte[0]);
        }
        // 16 keys of 27 bytes; only the first is whole: far less than 16 * 27.
        assertThat(builder.currentSize()).isLessThan(27 + 15 * 5 + 8 + 4 * 16);
    }

    @Test
    void emptyBlockHasNoEntries() {
        Block block = new Block(new BlockBuilder(16).finish().toByteArray(), BYTES);
        Block.BlockIterator it = block.iterator();
        it.seekToFirst();
        assertThat(it.valid()).isFalse();
        it.seek(b("x"));
        assertThat(it.valid()).isFalse();
    }

    @Test
    void malformedBlocksAreRejected() {
        assertThatThrownBy(() -> new Block(new byte[] {1, 2}, BYTES)).isInstanceOf(Block.BlockFormatException.class);
        byte[] badCount = {0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, 0, 0};
        assertThatThrownBy(() -> new Block(badCount, BYTES)).isInstanceOf(Block.BlockFormatException.class)
                .hasMessageContaining("restart count");
        BlockBuilder builder = new BlockBuilder(16);
        builder.add(b("abc"), b("v"));
        builder.add(b("abd"), b("v"));
        byte[] data = builder.finish().toByteArray();
        data[0] = 9; // first entry claims 9 shared bytes of no previous key
        Block block = new Block(data, BYTES);
        Block.BlockIterator it = block.iterator();
        assertThatThrownBy(it::seekToFirst).isInstanceOf(Block.BlockFormatException.class);
    }
}
