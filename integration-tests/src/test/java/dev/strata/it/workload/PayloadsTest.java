package dev.strata.it.workload;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class PayloadsTest {
    @Test
    void aSmallValueIsItsName() {
        assertThat(Payloads.bytes("c1-7")).isEqualTo("c1-7".getBytes(StandardCharsets.UTF_8));
        assertThat(Payloads.name(Payloads.bytes("c1-7"))).isEqualTo("c1-7");
    }

    @Test
    void aLargeValueRoundTripsThroughItsName() {
        String name = Payloads.largeName("c3-17", 70 * 1024);
        byte[] bytes = Payloads.bytes(name);
        assertThat(bytes).hasSize(70 * 1024);
        assertThat(Payloads.name(bytes)).isEqualTo(name);
    }

    @Test
    void aLargeValueWithOneByteChangedIsCorrupt() {
        byte[] bytes = Payloads.bytes(Payloads.largeName("c3-17", 70 * 1024));
        bytes[50_000] ^= 1;
        assertThat(Payloads.name(bytes)).startsWith("CORRUPT:");
    }

    @Test
    void aTruncatedLargeValueIsCorrupt() {
        byte[] bytes = Payloads.bytes(Payloads.largeName("c3-17", 70 * 1024));
        byte[] cut = java.util.Arrays.copyOf(bytes, 1000);
        assertThat(Payloads.name(cut)).startsWith("CORRUPT:");
    }
}
