package dev.strata.server.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback ports for servers run in-process: the server's and the cluster tests', and the
 * nodes of {@code strata-bench checkpoint} (hence in the main jar, not the test jar). A port the kernel hands out for {@code bind(0)} is an
 * ephemeral one, and outgoing connections take their local ports from that same range: a port
 * freed for a server to bind a moment later (or again after a restart) can meanwhile belong to
 * a connection, and the bind fails. So ports come from below the kernel's ephemeral range, where
 * no connection is ever placed, each checked free by binding it.
 */
public final class Ports {
    private static final int LOWEST = 10_000;
    private static final int ABOVE = ephemeralRangeStart();
    /** Each JVM starts at a random place, so test runs in parallel rarely try the same ports. */
    private static final AtomicInteger NEXT = new AtomicInteger(LOWEST + ThreadLocalRandom.current().nextInt(ABOVE - LOWEST));

    private Ports() {}

    /** A loopback port no socket holds now and no outgoing connection will take. */
    public static int free() {
        for (int attempt = 0; attempt < ABOVE - LOWEST; attempt++) {
            int port = NEXT.getAndUpdate(p -> p + 1 >= ABOVE ? LOWEST : p + 1);
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException inUse) {
                // taken by some other listener: try the next
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
