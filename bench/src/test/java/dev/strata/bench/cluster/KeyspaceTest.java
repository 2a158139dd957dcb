package dev.strata.bench.cluster;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class KeyspaceTest {
    @Test
    void keysAreZeroPaddedUnderBench() {
        assertThat(Keyspace.keyOf(42).toStringUtf8()).isEqualTo("bench/000000000042");
    }

    @Test
    void operationsGetTheSameKeysAndValuesForTheSameSeed() {
        Keyspace a = new Keyspace(1000, 256, 7);
        Keyspace b = new Keyspace(1000, 256, 7);
        for (long i = 0; i < 5000; i++) {
            assertThat(a.key(i)).isEqualTo(b.key(i));
            assertThat(a.value(i)).isEqualTo(b.value(i));
        }
        assertThat(a.value(0).size()).isEqualTo(256);
    }

    @Test
    void keysSpreadOverTheWholeKeyspace() {
        Keyspace k = new Keyspace(100, 16, 1);
        Set<String> seen = new HashSet<>();
        for (long i = 0; i < 5000; i++) {
            seen.add(k.key(i).toStringUtf8());
        }
        assertThat(seen).hasSize(100);
    }
}
