package dev.strata.testkit.cluster;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The state of every directed link between nodes, as the fault proxies in front of the Raft
 * ports enforce it. A link from A to B carries the connections A opens to B (A's requests to B
 * and B's answers); a symmetric fault sets both directions.
 */
public final class Network {
    /** How a link behaves: cut (connections refused and closed), or slowed and lossy. */
    public record Link(boolean cut, long delayMillis, double resetProbability) {
        public static final Link HEALTHY = new Link(false, 0, 0);
        public static final Link CUT = new Link(true, 0, 0);
    }

    private record Pair(long from, long to) {}

    private final Map<Pair, Link> links = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    public Link link(long from, long to) {
        return links.getOrDefault(new Pair(from, to), Link.HEALTHY);
    }

    /** Sets the link from {@code from} to {@code to} and its reverse. */
    public void set(long a, long b, Link link) {
        links.put(new Pair(a, b), link);
        links.put(new Pair(b, a), link);
        listeners.forEach(Runnable::run);
    }

    /** Cuts every link between a node of {@code side} and a node of {@code other}. */
    public void partition(Iterable<Long> side, Iterable<Long> other) {
        for (long a : side) {
            for (long b : other) {
                if (a != b) {
                    links.put(new Pair(a, b), Link.CUT);
                    links.put(new Pair(b, a), Link.CUT);
                }
            }
        }
        listeners.forEach(Runnable::run);
    }

    /** Every link healthy again. */
    public void heal() {
        links.clear();
        listeners.forEach(Runnable::run);
    }

    boolean healthy() {
        return links.isEmpty();
    }

    /** Runs {@code listener} after every change (the proxies close connections that a cut now forbids). */
    void onChange(Runnable listener) {
        listeners.add(listener);
    }
}
