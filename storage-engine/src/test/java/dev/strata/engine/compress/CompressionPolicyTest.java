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
    void adaptiveGivesValueLogsLz4OnlyWhileBehind() {
        CompressionPolicy p = CompressionPolicy.adaptive();
        assertThat(p.isAdaptive()).isTrue();
        assertThat(p.longLivedCodec()).isEqualTo(Codec.ZSTD);
        assertThat(p.longLivedCodec(false)).isEqualTo(Codec.ZSTD);
        assertThat(p.longLivedCodec(true)).isEqualTo(Codec.LZ4);
        assertThat(p.provisionalCodec()).isEqualTo(Codec.LZ4);
        assertThat(p.codecFor(1, true)).as("tables keep the default's codecs").isEqualTo(Codec.ZSTD);
        assertThat(p.codecFor(0, false)).isEqualTo(Codec.LZ4);
        assertThat(p.withZstdLevel(1).isAdaptive()).isTrue();
        assertThat(p).isNotEqualTo(CompressionPolicy.defaults());
        assertThat(p.toString()).startsWith("adaptive[");
    }

    @Test
    void aFixedPolicyHasNoProvisionalCodec() {
        assertThat(CompressionPolicy.defaults().isAdaptive()).isFalse();
        assertThat(CompressionPolicy.defaults().provisionalCodec()).isNull();
        assertThat(CompressionPolicy.defaults().longLivedCodec(true)).as("behind or not").isEqualTo(Codec.ZSTD);
        assertThat(CompressionPolicy.uniform(Codec.LZ4).longLivedCodec(true)).isEqualTo(Codec.LZ4);
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
