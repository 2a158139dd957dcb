package dev.strata.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback ports for the in-process nodes of {@link InProcessCluster}, chosen as the server's
 * test {@code Ports} chooses them: below the kernel's ephemeral range. A port {@code bind(0)}
 * hands out is ephemeral, and outgoing connections take their local ports from that range, so
 * such a port could belong to a connection by the time a stopped node binds it again.
 */
final class LoopbackPorts {
    private static final int LOWEST = 10_000;
    private static final int ABOVE = ephemeralRangeStart();
    /** A random start, so runs in parallel rarely try the same ports. */
    private static final AtomicInteger NEXT = new AtomicInteger(LOWEST + ThreadLocalRandom.current().nextInt(ABOVE - LOWEST));

    private LoopbackPorts() {}

    /** A loopback port no socket holds now and no outgoing connection will take. */
    static int free() {
        for (int attempt = 0; attempt < ABOVE - LOWEST; attempt++) {
            int port = NEXT.getAndUpdate(p -> p + 1 >= ABOVE ? LOWEST : p + 1);
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException inUse) {
                // held by another listener: try the next
            }
        }
        throw new IllegalStateException("no free loopback port in [" + LOWEST + ", " + ABOVE + ")");
    }

    /** The first port of the kernel's ephemeral range (Linux), or 32768 when it cannot be read. */
    private static int ephemeralRangeStart() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int start = Integer.parseInt(range.split("\\s+")[0]);
            return start > LOWEST + 1000 ? start : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
