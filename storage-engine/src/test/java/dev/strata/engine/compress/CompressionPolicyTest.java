package dev.strata.engine.compress;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompressionPolicyTest {
    @Test
    void defaultChoosesByRoleNotNumber() {
        CompressionPolicy p = CompressionPolicy.defaults();
        assertThat(p.codecFor(0, true)).as("flush output is L0's codec even with nothing below it").isEqualTo(Codec.LZ4);
        assertThat(p.codecFor(0, false)).isEqualTo(Codec.LZ4);
        assertThat(p.codecFor(1, true)).as("a small database's bottom is L1, still zstd").isEqualTo(Codec.ZSTD);
        assertThat(p.codecFor(1, false)).isEqualTo(Codec.LZ4);
        assertThat(p.codecFor(4, false)).isEqualTo(Codec.LZ4);
        assertThat(p.codecFor(6, true)).isEqualTo(Codec.ZSTD);
        assertThat(p.longLivedCodec()).isEqualTo(Codec.ZSTD);
        assertThat(p.zstdLevel()).isEqualTo(3);
    }

    @Test
    void perLevelListRepeatsItsLastEntry() {
        CompressionPolicy p = CompressionPolicy.perLevel(Codec.NONE, Codec.NONE, Codec.LZ4, Codec.ZSTD);
        assertThat(p.codecFor(0, false)).isEqualTo(Codec.NONE);
        assertThat(p.codecFor(1, true)).as("a fixed list ignores the role").isEqualTo(Codec.NONE);
        assertThat(p.codecFor(2, false)).isEqualTo(Codec.LZ4);
        assertThat(p.codecFor(3, false)).isEqualTo(Codec.ZSTD);
        assertThat(p.codecFor(9, false)).isEqualTo(Codec.ZSTD);
        assertThat(CompressionPolicy.uniform(Codec.SNAPPY).codecFor(0, false)).isEqualTo(Codec.SNAPPY);
    }

    @Test
    void badArgumentsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> CompressionPolicy.defaults().withZstdLevel(40)).hasMessageContaining("40");
        assertThatThrownBy(CompressionPolicy::perLevel).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CompressionPolicy.defaults().codecFor(-1, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void equalPoliciesAreEqual() {
        assertThat(CompressionPolicy.defaults()).isEqualTo(CompressionPolicy.byRole(Codec.LZ4, Codec.LZ4, Codec.ZSTD));
        assertThat(CompressionPolicy.defaults().withZstdLevel(5)).isNotEqualTo(CompressionPolicy.defaults());
        assertThat(CompressionPolicy.defaults().toString()).contains("ZSTD").contains("zstdLevel=3");
    }
}
