package dev.strata.testkit.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Finds which process opened a loopback TCP connection, from Linux's {@code /proc}: the
 * connecting socket's inode in {@code /proc/net/tcp{,6}}, then the process whose file
 * descriptors hold that inode. The fault proxy needs this because every node dials a peer's
 * Raft port from 127.0.0.1 and an ephemeral port: the address alone does not say which node it
 * is, and a partition must cut the links of one node and not of another.
 */
final class SocketOwners {
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private SocketOwners() {}

    /**
     * The pid among {@code candidates} that owns the socket whose local port is {@code localPort}
     * and whose remote port is {@code remotePort}, or empty when none does (it closed, or another
     * process opened it).
     */
    static OptionalLong owner(int localPort, int remotePort, long[] candidates) {
        String inode = inode(localPort, remotePort);
        if (inode == null) {
            return OptionalLong.empty();
        }
        String link = "socket:[" + inode + "]";
        for (long pid : candidates) {
            if (holds(pid, link)) {
                return OptionalLong.of(pid);
            }
        }
        return OptionalLong.empty();
    }

    /** The inode of the socket with these ports, from lines like {@code 0: 0100007F:9C40 0100007F:1F90 01 ... inode}. */
    private static String inode(int localPort, int remotePort) {
        String local = ":" + hex(localPort);
        String remote = ":" + hex(remotePort);
        for (Path table : TABLES) {
            List<String> lines;
            try {
                lines = Files.readAllLines(table);
            } catch (IOException e) {
                continue; // no IPv6 table on this machine
            }
            for (String line : lines) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(local) && f[2].endsWith(remote)) {
                    return f[9];
                }
            }
        }
        return null;
    }

    private static String hex(int port) {
        return String.format(Locale.ROOT, "%04X", port);
    }

    private static boolean holds(long pid, String link) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().equals(link);
                } catch (IOException gone) {
                    return false; // the descriptor closed while we looked
                }
            });
        } catch (IOException exited) {
            return false;
        }
    }
}
