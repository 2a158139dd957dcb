package dev.strata.client;

import dev.strata.proto.v1.ClusterGrpc;
import dev.strata.proto.v1.StatusRequest;
import dev.strata.proto.v1.StatusResponse;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicBoolean;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The nodes a client talks to, one channel each, and which one it prefers. Calls go to the
 * preferred node until it fails; a failed node is then avoided for a cool-down while another is
 * preferred, so a client does not stay stuck on a node that is down or cut off from the leader.
 * A leader hint in an error (any node may name the leader) makes the leader preferred: every
 * node serves every call, but the leader does so without forwarding.
 *
 * <p>Writes go to the leader when the client knows it (unless leader routing is off): a follower
 * would forward them there, one more hop for every write. The client asks a node for the
 * leader ({@code Cluster/Status}) before its first write, and again whenever a response carries
 * a Raft term newer than the one it learnt the leader in, since a leader change always starts
 * a new term. Until it knows, writes go where reads go. Thread-safe.
 */
final class Endpoints implements AutoCloseable {
    /** A node and its channel. */
    static final class Target {
        final String address;
        final ManagedChannel channel;
        volatile long avoidUntilNanos;

        Target(String address, ManagedChannel channel) {
            this.address = address;
            this.channel = channel;
        }

        boolean avoided(long now) {
            return now - avoidUntilNanos < 0;
        }
    }

    private final ChannelCredentials credentials;
    private final long coolDownNanos;
    private final List<Target> configured = new ArrayList<>();
    private final Map<String, Target> byAddress = new ConcurrentHashMap<>();
    private volatile Target preferred;
    private final boolean writesToLeader;
    private final long statusTimeoutMillis;
    /** The leader as last learnt, or null. */
    private volatile Target leader;
    /** The Raft term {@link #leader} was learnt in; -1 before the first answer. */
    private volatile long leaderTerm = -1;
    private final AtomicBoolean askingForLeader = new AtomicBoolean();
    private final ClientEventLoop eventLoop;

    Endpoints(List<String> addresses, ChannelCredentials credentials, long coolDownMillis) {
        this(addresses, credentials, coolDownMillis, false, 0, true);
    }

    /**
     * @param writesToLeader      send writes to the leader once known
     * @param statusTimeoutMillis deadline of a status call that asks for the leader
     * @param nativeTransport     epoll where Netty has it, else the JDK's sockets
     */
    Endpoints(List<String> addresses, ChannelCredentials credentials, long coolDownMillis, boolean writesToLeader,
              long statusTimeoutMillis, boolean nativeTransport) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no endpoints given");
        }
        this.eventLoop = new ClientEventLoop(nativeTransport);
        this.credentials = credentials;
        this.coolDownNanos = TimeUnit.MILLISECONDS.toNanos(coolDownMillis);
        for (String a : addresses) {
            configured.add(target(a));
        }
        preferred = configured.get(0);
        this.writesToLeader = writesToLeader;
        this.statusTimeoutMillis = statusTimeoutMillis;
    }

    /** Whether the channels are plaintext (no TLS). */
    boolean plaintext() {
        return credentials instanceof InsecureChannelCredentials;
    }

    private Target target(String address) {
        return byAddress.computeIfAbsent(address, a -> new Target(a, eventLoop.channelBuilder(a, credentials)
                // gRPC's default refuses responses over 4 MiB, and a value may be 16 MiB by default
                // (strata.server.max-value-size, up to 1 GiB): take any size, as etcd's client does.
                .maxInboundMessageSize(Integer.MAX_VALUE)
                .build()));
    }

    /**
     * The node to call next: the preferred one unless it is cooling down, then the next
     * configured one that is not, and when every one failed lately the one that failed longest ago.
     */
    Target pick() {
        Target p = preferred;
        long now = System.nanoTime();
        if (!p.avoided(now)) {
            return p;
        }
        int start = Math.max(0, configured.indexOf(p));
        for (int i = 1; i <= configured.size(); i++) {
            Target t = configured.get((start + i) % configured.size());
            if (!t.avoided(now)) {
                preferred = t;
                return t;
            }
        }
        Target leastRecentlyFailed = p;
        for (Target t : configured) {
            if (t.avoidUntilNanos - leastRecentlyFailed.avoidUntilNanos < 0) {
                leastRecentlyFailed = t;
            }
        }
        preferred = leastRecentlyFailed; // every node failed lately: try the one that failed longest ago
        return leastRecentlyFailed;
    }

    /**
     * The node for a write: the leader when it is known and not cooling down, else as
     * {@link #pick()} chooses (and the leader is asked for, once, if not known yet).
     */
    Target pickForWrite() {
        if (!writesToLeader) {
            return pick();
        }
        Target l = leader;
        if (l == null) {
            askForLeader();
            return pick();
        }
        return l.avoided(System.nanoTime()) ? pick() : l;
    }

    /** A response came from a node in {@code term}; a newer term than the leader's means the leader may have changed. */
    void observedTerm(long term) {
        if (writesToLeader && term > leaderTerm && leaderTerm >= 0) {
            askForLeader();
        }
    }

    /** Asks the preferred node which node leads, unless a question is already out. */
    private void askForLeader() {
        if (!askingForLeader.compareAndSet(false, true)) {
            return;
        }
        Target asked = pick();
        ClusterGrpc.newStub(asked.channel).withDeadlineAfter(statusTimeoutMillis, TimeUnit.MILLISECONDS)
                .status(StatusRequest.getDefaultInstance(), new StreamObserver<>() {
                    @Override
                    public void onNext(StatusResponse s) {
                        learnLeader(s.getLeaderEndpoint(), s.getHeader().getRaftTerm());
                    }

                    @Override
                    public void onError(Throwable t) {
                        // Writes keep going where reads go; the next write or newer term asks again.
                        askingForLeader.set(false);
                    }

                    @Override
                    public void onCompleted() {
                        askingForLeader.set(false);
                    }
                });
    }

    /** Records the leader a node named in {@code term} (an empty address names none). */
    void learnLeader(String address, long term) {
        if (term < leaderTerm) {
            return;
        }
        leaderTerm = term;
        if (!address.isEmpty()) {
            leader = target(address);
        }
    }

    /** The leader's address as last learnt, or null; for tests. */
    String knownLeader() {
        Target l = leader;
        return l == null ? null : l.address;
    }

    /** The call to {@code t} failed in a way another node may not: avoid it for a while. */
    void failed(Target t) {
        t.avoidUntilNanos = System.nanoTime() + coolDownNanos;
    }

    /** A node named {@code address} as the leader. */
    void leaderHint(String address) {
        if (!address.isEmpty()) {
            Target t = target(address);
            t.avoidUntilNanos = System.nanoTime();
            preferred = t;
            if (writesToLeader) {
                leader = t;
            }
        }
    }

    @Override
    public void close() {
        for (Target t : byAddress.values()) {
            t.channel.shutdown();
        }
        for (Target t : byAddress.values()) {
            try {
                if (!t.channel.awaitTermination(5, TimeUnit.SECONDS)) {
                    t.channel.shutdownNow();
                }
            } catch (InterruptedException e) {
                t.channel.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
        eventLoop.close();
    }
}
