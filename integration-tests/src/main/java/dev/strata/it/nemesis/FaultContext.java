package dev.strata.it.nemesis;

import dev.strata.testkit.cluster.ProcessCluster;

import java.time.Duration;
import java.util.List;
import java.util.Random;

/** What a nemesis acts on: the cluster, and a seeded random source so a run can be repeated. */
public record FaultContext(ProcessCluster cluster, Random random) {
    /** How long a nemesis waits for the cluster when it needs a leader or a membership change. */
    static final Duration PATIENCE = Duration.ofSeconds(60);

    /** A member chosen at random among those running. */
    long anyRunning() {
        List<Long> running = cluster.memberIds().stream().filter(cluster::running).toList();
        if (running.isEmpty()) {
            throw new IllegalStateException("no node is running");
        }
        return running.get(random.nextInt(running.size()));
    }

    /** The current leader (waiting for one). */
    long leader() {
        return cluster.awaitLeader(PATIENCE);
    }

    /** A running member other than the leader. */
    long follower() {
        long leader = leader();
        List<Long> followers = cluster.memberIds().stream().filter(id -> id != leader && cluster.running(id)).toList();
        if (followers.isEmpty()) {
            throw new IllegalStateException("no running follower");
        }
        return followers.get(random.nextInt(followers.size()));
    }
}
