package dev.strata.testkit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PortsTest {
    @Test
    void aFreePortIsInTheDefaultRangeAndBindable() throws IOException {
        int port = Ports.free();
        assertThat(port).isGreaterThanOrEqualTo(20_000).isLessThan(65_536);
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        }
    }

    @Test
    void aRangeIsLowDashHighWithinTheUnprivilegedPorts() {
        assertThat(Ports.parseRange("10000-20000")).containsExactly(10_000, 20_000);
        assertThat(Ports.parseRange(" 1024 - 65536 ")).containsExactly(1024, 65_536);
        for (String bad : new String[] {"20000", "20000-10000", "80-1000", "10000-70000", "a-b", "1-2-3", ""}) {
            assertThatThrownBy(() -> Ports.parseRange(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(Ports.RANGE_PROPERTY);
        }
    }
}
