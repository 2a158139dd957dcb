package dev.strata.client;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
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
 * node serves every call, but the leader does so without forwarding. Thread-safe.
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

    Endpoints(List<String> addresses, ChannelCredentials credentials, long coolDownMillis) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no endpoints given");
        }
        this.credentials = credentials;
        this.coolDownNanos = TimeUnit.MILLISECONDS.toNanos(coolDownMillis);
        for (String a : addresses) {
            configured.add(target(a));
        }
        preferred = configured.get(0);
    }

    /** Whether the channels are plaintext (no TLS). */
    boolean plaintext() {
        return credentials instanceof InsecureChannelCredentials;
    }

    private Target target(String address) {
        return byAddress.computeIfAbsent(address, a -> new Target(a, Grpc.newChannelBuilder(a, credentials)
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
    }
}
