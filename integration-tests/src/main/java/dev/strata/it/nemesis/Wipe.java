package dev.strata.it.nemesis;

/**
 * A follower's disk replaced: kill -9, delete its data directory, start it again empty with the
 * same id. It must catch up from the others (by checkpoint once the log is purged). Only a
 * follower: a voter that forgets its log and votes is safe only while a majority that holds
 * every committed entry is up, which is why this nemesis is never combined with another crash.
 */
public final class Wipe implements Nemesis {
    private long victim;

    @Override
    public String name() {
        return "wipe";
    }

    @Override
    public String inject(FaultContext c) {
        victim = c.follower();
        c.cluster().kill9(victim);
        c.cluster().wipe(victim);
        return "kill -9 node " + victim + " and wipe its data directory";
    }

    @Override
    public String heal(FaultContext c) {
        c.cluster().startNode(victim);
        return "start node " + victim + " empty";
    }
}
