package dev.strata.testkit.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;

/**
 * Which ports each member of a {@link ProcessCluster} listens on, kept as a file in the cluster's
 * directory. The nodes' Raft logs name these addresses, so a copy of the directory taken while
 * every node is stopped starts again only on the same ports ({@link ProcessCluster#adopt}).
 */
public final class ClusterLayout {
    /** The file's name in a cluster's directory. */
    public static final String FILE = "cluster-layout.properties";

    private ClusterLayout() {}

    static void write(Path dir, Collection<ProcessCluster.Node> nodes) {
        Properties p = new Properties();
        nodes.forEach(n -> p.setProperty("node." + n.id(), n.clientPort() + "," + n.raftPort() + "," + n.proxyPort()));
        try (var out = Files.newBufferedWriter(dir.resolve(FILE))) {
            p.store(out, "ProcessCluster layout: node.ID=clientPort,raftPort,proxyPort");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the layout of " + dir, e);
        }
    }

    /**
     * The members {@link #write} recorded in {@code dir}, by id.
     *
     * @throws IllegalArgumentException when the directory holds no layout, a malformed one or an empty one
     */
    static List<ProcessCluster.Node> read(Path dir) {
        Path file = dir.resolve(FILE);
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("no cluster layout in " + dir + " (" + e.getMessage() + ")", e);
        }
        List<ProcessCluster.Node> nodes = new ArrayList<>();
        for (String name : p.stringPropertyNames()) {
            String[] ports = p.getProperty(name).split(",");
            if (!name.startsWith("node.") || ports.length != 3) {
                throw new IllegalArgumentException("malformed line in " + file + ": " + name);
            }
            nodes.add(new ProcessCluster.Node(Long.parseLong(name.substring("node.".length())), Integer.parseInt(ports[0]),
                    Integer.parseInt(ports[1]), Integer.parseInt(ports[2]), false));
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("the cluster layout in " + dir + " names no node");
        }
        nodes.sort(Comparator.comparingLong(ProcessCluster.Node::id));
        return nodes;
    }
}
