package dev.strata.it.nemesis;

/**
 * A node whose disk refuses writes: its file-size limit drops to 64 KiB, so every write past
 * that offset of any file fails (EFBIG, as ENOSPC would). The node must refuse what it cannot
 * store and lose nothing it acknowledged. Heal lifts the limit and restarts the node, as an
 * operator does after freeing space.
 */
public final class DiskFull implements Nemesis {
    private static final long LIMIT = 64 * 1024;
    private long victim;

    @Override
    public String name() {
        return "disk-full";
    }

    @Override
    public Injection inject(FaultContext c) {
        victim = c.anyRunning();
        c.cluster().process(victim).limitFileSize(LIMIT);
        return Injection.of("node " + victim + " cannot write past " + LIMIT + " bytes of any file");
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().kill9(victim);
        c.cluster().startNode(victim);
        return "restart node " + victim + " with its disk writable";
    }
}
