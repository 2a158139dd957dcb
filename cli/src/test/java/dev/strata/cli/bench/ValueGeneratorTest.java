package dev.strata.cli.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.zip.Deflater;

import static org.assertj.core.api.Assertions.assertThat;

class ValueGeneratorTest {
    /** Compressed size over raw size of 256 KiB of 1 KiB values. */
    private static double deflatedRatio(double compressibility) {
        ValueGenerator g = new ValueGenerator(3, 1024, compressibility);
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        for (int i = 0; i < 256; i++) {
            raw.writeBytes(g.next());
        }
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
        d.setInput(raw.toByteArray());
        d.finish();
        byte[] buffer = new byte[1 << 16];
        long compressed = 0;
        while (!d.finished()) {
            compressed += d.deflate(buffer);
        }
        d.end();
        return compressed / (double) raw.size();
    }

    @Test
    void moreCompressibleValuesCompressSmaller() {
        double none = deflatedRatio(0);
        double half = deflatedRatio(0.5);
        double most = deflatedRatio(0.9);
        assertThat(none).isGreaterThan(half);
        assertThat(half).isGreaterThan(most);
        // Random printable bytes still lose a little to entropy coding; the repeated half goes away.
        assertThat(none).isGreaterThan(0.75);
        assertThat(half).isBetween(0.3, 0.6);
        assertThat(most).isLessThan(0.2);
    }

    @Test
    void valuesHaveTheAskedSizeAndDiffer() {
        ValueGenerator g = new ValueGenerator(3, 4096, 0.5);
        byte[] a = g.next();
        byte[] b = g.next();
        assertThat(a).hasSize(4096);
        assertThat(b).hasSize(4096).isNotEqualTo(a);
    }
}
