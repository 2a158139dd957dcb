package dev.strata.it.nemesis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

/** Every nemesis by name, and their composition. */
public final class Nemeses {
    private static final Map<String, Supplier<Nemesis>> ALL = new LinkedHashMap<>();

    static {
        add(() -> new Kill(Target.RANDOM));
        add(() -> new Kill(Target.LEADER));
        add(Restart::new);
        add(() -> new Pause(Target.RANDOM));
        add(() -> new Pause(Target.LEADER));
        add(() -> new Partition(Partition.Shape.MAJORITY_MINORITY));
        add(() -> new Partition(Partition.Shape.LEADER_ISOLATED));
        add(() -> new Partition(Partition.Shape.BRIDGE));
        add(() -> new BadLinks(BadLinks.Kind.SLOW));
        add(() -> new BadLinks(BadLinks.Kind.LOSSY));
        add(Wipe::new);
        add(DiskFull::new);
        add(MembershipChange::new);
        add(LeaderTransfer::new);
        add(WipeInPlace::new);
        add(WipeDuringCatchUp::new);
        add(WipeAskingGonePeers::new);
        add(EngineLogDamage::new);
    }

    /** Faults that take a node down or away; two at once on three nodes would leave no majority. */
    private static final List<String> CRASHES = List.of("kill-node", "kill-leader", "restart", "pause-node", "pause-leader",
            "wipe", "wipe-in-place", "wipe-during-catch-up", "wipe-asking-gone-peers", "disk-full", "membership",
            "engine-log-damage");

    /** Faults that lose a node's disk; each runs alone. */
    private static final List<String> WIPES = List.of("wipe", "wipe-in-place", "wipe-during-catch-up",
            "wipe-asking-gone-peers");

    private Nemeses() {}

    private static void add(Supplier<Nemesis> s) {
        ALL.put(s.get().name(), s);
    }

    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    /** A fresh nemesis by name. */
    public static Nemesis named(String name) {
        Supplier<Nemesis> s = ALL.get(name);
        if (s == null) {
            throw new IllegalArgumentException("unknown nemesis \"" + name + "\"; known: " + String.join(", ", ALL.keySet()));
        }
        return s.get();
    }

    /** Several nemeses injected together and healed in reverse order. */
    public static Nemesis compose(List<Nemesis> parts) {
        return parts.size() == 1 ? parts.get(0) : new Composite(parts);
    }

    /**
     * A random composition from {@code allowed}: one fault, or one crash-type fault with one
     * network or leadership fault (never two crashes, which on three nodes would leave no
     * quorum). A wipe always runs alone: a voter that lost its log is safe only while every other
     * node is up and connected, as Raft assumes.
     */
    public static Nemesis random(List<String> allowed, Random random) {
        String first = allowed.get(random.nextInt(allowed.size()));
        List<Nemesis> parts = new ArrayList<>(List.of(named(first)));
        List<String> companions = WIPES.contains(first) ? List.of() : allowed.stream()
                .filter(n -> !n.equals(first) && !WIPES.contains(n) && !(CRASHES.contains(n) && CRASHES.contains(first))
                        && !(n.startsWith("partition") && first.startsWith("partition")))
                .toList();
        if (!companions.isEmpty() && random.nextBoolean()) {
            parts.add(named(companions.get(random.nextInt(companions.size()))));
        }
        return compose(parts);
    }

    private record Composite(List<Nemesis> parts) implements Nemesis {
        @Override
        public String name() {
            return String.join("+", parts.stream().map(Nemesis::name).toList());
        }

        /** Injects the parts in order; when one fails, heals those already injected before passing the failure on. */
        @Override
        public Injection inject(FaultContext c) {
            List<String> done = new ArrayList<>();
            boolean faulted = false;
            for (int i = 0; i < parts.size(); i++) {
                try {
                    Injection part = parts.get(i).inject(c);
                    done.add(part.description());
                    faulted |= part.faulted();
                } catch (RuntimeException e) {
                    for (Nemesis injected : parts.subList(0, i).reversed()) {
                        try {
                            injected.heal(c);
                        } catch (RuntimeException healFailed) {
                            e.addSuppressed(healFailed);
                        }
                    }
                    throw e;
                }
            }
            return new Injection(String.join("; ", done), faulted);
        }

        @Override
        public String heal(FaultContext c) {
            List<String> done = new ArrayList<>();
            for (Nemesis n : parts.reversed()) {
                done.add(n.heal(c));
            }
            return String.join("; ", done);
        }
    }
}
