package dev.strata.bench;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CountConverterTest {
    private final CountConverter converter = new CountConverter();

    @Test
    void readsPlainAndSuffixedCounts() {
        assertThat(converter.convert("20000")).isEqualTo(20_000L);
        assertThat(converter.convert("20k")).isEqualTo(20_000L);
        assertThat(converter.convert("400K")).isEqualTo(400_000L);
        assertThat(converter.convert("1M")).isEqualTo(1_000_000L);
    }

    @Test
    void refusesOtherText() {
        for (String bad : new String[] {"", "1.5M", "-3", "10x", "1 M", "99999999999999999999"}) {
            assertThatThrownBy(() -> converter.convert(bad)).as(bad).isInstanceOf(TypeConversionException.class);
        }
    }
}
