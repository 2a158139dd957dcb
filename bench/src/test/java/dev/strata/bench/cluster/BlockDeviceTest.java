package dev.strata.bench.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BlockDeviceTest {
    @Test
    void sectorsWrittenIsTheSeventhField() {
        // reads, merged, sectors read, ms reading, writes, merged, sectors written, ms writing, ...
        String line = "   41234     1203  3288764    20345   912345    40111 77123456   998877        0   456789  1019222\n";
        assertThat(BlockDevice.sectorsWritten(line)).isEqualTo(77_123_456L);
        assertThatThrownBy(() -> BlockDevice.sectorsWritten("1 2 3")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void majorAndMinorAsGlibcSplitsThem() {
        assertThat(BlockDevice.major(0xfd01L)).isEqualTo(253); // a device-mapper volume, 253:1
        assertThat(BlockDevice.minor(0xfd01L)).isEqualTo(1);
        assertThat(BlockDevice.major(0x0800L)).isEqualTo(8); // sda, 8:0
        // Large numbers use the high bits: major 0x123, minor 0x45678.
        long dev = (0x123L & 0xfff) << 8 | (0x45678L & 0xff) | (0x45678L & ~0xffL) << 12;
        assertThat(BlockDevice.major(dev)).isEqualTo(0x123);
        assertThat(BlockDevice.minor(dev)).isEqualTo(0x45678);
    }
}
