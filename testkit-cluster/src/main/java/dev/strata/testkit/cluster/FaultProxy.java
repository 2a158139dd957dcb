package dev.strata.testkit.cluster;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * A TCP proxy in front of one node's Raft port: the other nodes dial it (it is the address in
 * the peer list) and it forwards to the port the node really listens on, applying the
 * {@link Network}'s rules for the link from the dialing node: a cut link refuses and closes
 * connections, a slow one delays every chunk, a lossy one resets connections at random (TCP
 * never loses bytes silently, so loss shows up to Raft as broken streams and retransmissions).
 */
final class FaultProxy implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FaultProxy.class);
    private static final int CHUNK = 64 * 1024;

    private final long target;
    private final int targetPort;
    private final Network network;
    private final Supplier<long[][]> nodePids;
    private final ServerSocket listener;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** One proxied connection from node {@code from} (0 when no node owns it). */
    private record Connection(long from, Socket inbound, Socket outbound) {
        void close() {
            closeQuietly(inbound);
            closeQuietly(outbound);
        }
    }

    /**
     * @param nodePids pairs of (node id, pid) of the running nodes, to tell which node dialed
     */
    FaultProxy(long target, int listenPort, int targetPort, Network network, Supplier<long[][]> nodePids) {
        this.target = target;
        this.targetPort = targetPort;
        this.network = network;
        this.nodePids = nodePids;
        try {
            listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort));
        } catch (IOException e) {
            throw new UncheckedIOException("the fault proxy for node " + target + " cannot listen on " + listenPort, e);
        }
        network.onChange(this::enforceCuts);
        Thread.ofPlatform().daemon().name("proxy-" + target).start(this::acceptLoop);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket inbound;
            try {
                inbound = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("fault proxy for node {} stopped accepting: {}", target, e.toString());
                }
                return;
            }
            Thread.ofVirtual().start(() -> open(inbound));
        }
    }

    private void open(Socket inbound) {
        long from = dialer(inbound);
        if (network.link(from, target).cut()) {
            closeQuietly(inbound);
            return;
        }
        Socket outbound = new Socket();
        try {
            outbound.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
            inbound.setTcpNoDelay(true);
            outbound.setTcpNoDelay(true);
        } catch (IOException targetDown) {
            // The node is down or restarting: the dialer sees a refused connection, as it would without us.
            closeQuietly(inbound);
            closeQuietly(outbound);
            return;
        }
        Connection c = new Connection(from, inbound, outbound);
        connections.add(c);
        Thread.ofVirtual().start(() -> pump(c, inbound, outbound));
        Thread.ofVirtual().start(() -> pump(c, outbound, inbound));
    }

    /** Copies one direction until either side closes or the link's rules end the connection. */
    private void pump(Connection c, Socket source, Socket sink) {
        byte[] buffer = new byte[CHUNK];
        try (InputStream in = source.getInputStream(); OutputStream out = sink.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                Network.Link link = network.link(c.from(), target);
                if (link.cut() || (link.resetProbability() > 0 && ThreadLocalRandom.current().nextDouble() < link.resetProbability())) {
                    break;
                }
                if (link.delayMillis() > 0) {
                    Thread.sleep(link.delayMillis());
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (SocketException | InterruptedException closedUnderUs) {
            // The other pump, a cut or close() closed the sockets: the connection is over either way.
        } catch (IOException e) {
            LOG.debug("proxied connection to node {} broke: {}", target, e.toString());
        } finally {
            connections.remove(c);
            c.close();
        }
    }

    /** The node that opened {@code inbound}, or 0 when it is none of them. */
    private long dialer(Socket inbound) {
        long[][] nodes = nodePids.get();
        long[] pids = new long[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            pids[i] = nodes[i][1];
        }
        var owner = SocketOwners.owner(inbound.getPort(), inbound.getLocalPort(), pids);
        if (owner.isPresent()) {
            for (long[] node : nodes) {
                if (node[1] == owner.getAsLong()) {
                    return node[0];
                }
            }
        }
        return 0;
    }

    private void enforceCuts() {
        for (Connection c : connections) {
            if (network.link(c.from(), target).cut()) {
                connections.remove(c);
                c.close();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        connections.forEach(Connection::close);
        connections.clear();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception alreadyBroken) {
            // Closing a socket that failed has nothing left to report.
        }
    }
}
