package dev.strata.server.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One member in {@code strata.cluster.peers}: {@code id=host:raftPort:clientPort}.
 *
 * @param id         the member's node id (positive)
 * @param host       host name or address other nodes and clients reach it at
 * @param raftPort   its Raft port
 * @param clientPort its gRPC API port
 */
public record PeerSpec(long id, String host, int raftPort, int clientPort) {

    public String raftAddress() {
        return host + ":" + raftPort;
    }

    public String clientAddress() {
        return host + ":" + clientPort;
    }

    @Override
    public String toString() {
        return id + "=" + host + ":" + raftPort + ":" + clientPort;
    }

    /**
     * Parses {@code id=host:raftPort:clientPort,...}; an empty string is an empty list.
     *
     * @throws IllegalArgumentException naming the bad entry and what is wrong with it
     */
    public static List<PeerSpec> parseList(String spec) {
        List<PeerSpec> peers = new ArrayList<>();
        Set<Long> ids = new HashSet<>();
        if (spec.isBlank()) {
            return peers;
        }
        for (String entry : spec.split(",")) {
            PeerSpec p = parse(entry.trim());
            if (!ids.add(p.id)) {
                throw new IllegalArgumentException("peer id " + p.id + " appears twice in \"" + spec + "\"");
            }
            peers.add(p);
        }
        return peers;
    }

    static PeerSpec parse(String entry) {
        int eq = entry.indexOf('=');
        String[] parts = eq < 0 ? new String[0] : entry.substring(eq + 1).split(":");
        if (eq < 0 || parts.length != 3) {
            throw new IllegalArgumentException("peer \"" + entry + "\" is not id=host:raftPort:clientPort");
        }
        long id = Values.positiveLong("peer id in \"" + entry + "\"", entry.substring(0, eq).trim());
        if (parts[0].isBlank()) {
            throw new IllegalArgumentException("peer \"" + entry + "\" has no host");
        }
        return new PeerSpec(id, parts[0].trim(), Values.port("raft port in \"" + entry + "\"", parts[1].trim()),
                Values.port("client port in \"" + entry + "\"", parts[2].trim()));
    }
}
