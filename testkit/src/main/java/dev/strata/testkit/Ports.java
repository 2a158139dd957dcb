package dev.strata.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback ports for servers that tests and benchmarks start. A port the kernel hands out for
 * {@code bind(0)} is an
 * ephemeral one, and outgoing connections take their local ports from that same range: a port
 * freed for a server to bind a moment later (or again after a restart) can meanwhile belong to
 * a connection, and the bind fails. So ports come from below the kernel's ephemeral range, where
 * no connection is ever placed, each checked free by binding it.
 */
public final class Ports {
    /**
     * Names the range a JVM takes ports from, as {@code LOW-HIGH} (HIGH excluded). The soak
     * ({@code bin/strata-torture}) takes 10000-20000 and everything else starts at 20000: a soak
     * keeps a killed node's ports for its restart, and a test run beside it that took them
     * meanwhile would join the soak's cluster (the same group, the same node ids).
     */
    public static final String RANGE_PROPERTY = "strata.test.ports";
    private static final int DEFAULT_LOWEST = 20_000;
    private static final int[] RANGE = range();
    private static final int LOWEST = RANGE[0];
    private static final int ABOVE = RANGE[1];
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

    /** {@link #RANGE_PROPERTY}'s range, or from 20000 to the kernel's ephemeral range. */
    private static int[] range() {
        String range = System.getProperty(RANGE_PROPERTY);
        return range == null ? new int[] {DEFAULT_LOWEST, ephemeralRangeStart()} : parseRange(range);
    }

    /** {@code LOW-HIGH} as two ints, refused unless 1024 <= LOW < HIGH <= 65536. */
    static int[] parseRange(String range) {
        String[] parts = range.trim().split("-");
        try {
            if (parts.length == 2) {
                int low = Integer.parseInt(parts[0].trim());
                int high = Integer.parseInt(parts[1].trim());
                if (low >= 1024 && low < high && high <= 65_536) {
                    return new int[] {low, high};
                }
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException(RANGE_PROPERTY + " must be LOW-HIGH with 1024 <= LOW < HIGH <= 65536, was '"
                + range + "'");
    }

    /** The first port of the kernel's ephemeral range (Linux), or 32768 when it cannot be read. */
    private static int ephemeralRangeStart() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int start = Integer.parseInt(range.split("\\s+")[0]);
            return start > DEFAULT_LOWEST + 1000 ? start : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
