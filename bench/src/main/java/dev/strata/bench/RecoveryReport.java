package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.strata.cli.bench.MachineInfo;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything {@code strata-bench recovery} measured, as written to JSON, and its console tables.
 * Times are seconds; "after restart" times count from the moment the first node process was started.
 */
record RecoveryReport(String startedAt, MachineInfo machine, Options options, List<Run> runs) {
    /**
     * The run's options.
     *
     * @param keyFraction    keys in the key space per command of the size
     * @param crashWindow    the fractions of a size's commands between which the crash comes, drawn from the seed
     * @param nodeJvmOptions the flags of each node's JVM (besides those for native access)
     * @param nodeSettings   the server configuration every node got, on top of ports, peers and data directory
     * @param client         the SDK's settings for the load
     */
    record Options(List<Long> sizes, long seed, int nodes, int inFlight, int valueSize, double deleteFraction, double keyFraction,
                   List<Double> crashWindow, double leaderKillSteadySeconds, List<String> nodeJvmOptions,
                   Map<String, String> nodeSettings, String client, String dir) {}

    /**
     * One size: the load and kill -9 of every node, the restart, the check, then the leader kill and a second check.
     *
     * @param replicasIdentical whether every node held the same keys, values and revisions after the restart
     * @param loadAverageBefore the machine's one-minute load average when the size started, and {@code loadAverageAfter} when it ended
     */
    record Run(long commands, int keys, Crash crash, Restart restart, GroundTruth.Verification verification,
               boolean replicasIdentical, LeaderKill leaderKill, GroundTruth.Verification verificationAfterLeaderKill,
               double loadAverageBefore, double loadAverageAfter) {}

    /**
     * The load up to the crash and the crash.
     *
     * @param fraction          the crash point drawn, as a fraction of {@code commands}
     * @param loadSeconds       from the first command until the kill
     * @param acknowledgedBeforeCrash commands acknowledged before the kill
     * @param commandsPerSecond acknowledgedBeforeCrash / loadSeconds: the throughput before the crash
     * @param inFlightAtCrash   commands sent and not answered when the nodes were killed
     * @param load              every command of the load and how it ended, the ones in flight at the crash included
     */
    record Crash(double fraction, double loadSeconds, long acknowledgedBeforeCrash, double commandsPerSecond,
                 long inFlightAtCrash, RecoveryLoad.Counts load) {}

    /**
     * The restart of every node on its data, timed from the moment the first process was started.
     *
     * @param servingSeconds  until the first linearizable read through the SDK succeeded: the recovery time
     * @param firstUpSeconds  until the first node's client port accepted a connection
     * @param allUpSeconds    until every node's did
     * @param leaderSeconds   until a node said it was leader
     * @param caughtUpSeconds until every node had applied the leader's commit index
     * @param commitIndex     the leader's commit index once every node caught up
     * @param nodes           each node as it first answered Status
     * @param cpuAtServing    each node process's CPU from its start until the cluster served (three nodes share the machine's cores)
     */
    record Restart(double servingSeconds, double firstUpSeconds, double allUpSeconds, double leaderSeconds,
                   double caughtUpSeconds, long commitIndex, List<NodeStart> nodes, Map<Long, ThreadCpu> cpuAtServing) {
        /**
         * The most log entries a node had to apply after its start: the commit index minus what it
         * had applied when it first answered (all its engine held, in its files or its own log).
         */
        @JsonProperty
        long replayedEntries() {
            return nodes.stream().mapToLong(n -> Math.max(0, commitIndex - n.appliedIndex())).max().orElse(0);
        }

        /** One line per node: its CPU until the cluster served. */
        void printCpu(PrintStream out) {
            cpuAtServing.forEach((id, cpu) -> out.printf(Locale.ROOT, "  node %d until then: CPU %.2f s, of it JIT compilers %.2f s, "
                    + "collector %.2f s%n", id, cpu.totalSeconds(), cpu.compilerSeconds(), cpu.gcSeconds()));
        }
    }

    /**
     * A node as it first answered Status after its restart.
     *
     * @param durableIndex the last log index its engine's files held
     * @param appliedIndex the last log index applied: all its engine held, in its files or its own log
     * @param logStartIndex the first index in its Raft log
     */
    record NodeStart(long id, double upSeconds, long durableIndex, long appliedIndex, long logStartIndex) {}

    /**
     * kill -9 of the leader under steady load.
     *
     * @param newLeaderSeconds       from the kill until a surviving node said it was leader
     * @param longestGapSeconds      the longest time between two successful commands during the whole load
     * @param gapEndAfterKillSeconds when that gap ended, after the kill (it should be the kill's gap)
     * @param commandsPerSecond      acknowledged commands per second before the kill
     * @param restartCaughtUpSeconds from restarting the killed node until every node applied the commit index
     */
    record LeaderKill(long killed, long newLeader, long oldTerm, long newTerm, double newLeaderSeconds,
                      double longestGapSeconds, double gapEndAfterKillSeconds, double commandsPerSecond, double loadSeconds,
                      RecoveryLoad.Counts load, double restartCaughtUpSeconds) {}

    /** Prints the two tables. */
    void print(PrintStream out) {
        out.printf(Locale.ROOT, "%nkill -9 of every node after a random %.0f-%.0f%% of the commands, then a restart "
                        + "(%d in flight, %d-byte values, %.0f%% deletes):%n", options.crashWindow().get(0) * 100,
                options.crashWindow().get(1) * 100, options.inFlight(), options.valueSize(), options.deleteFraction() * 100);
        out.printf(Locale.ROOT, "%9s %8s %9s %9s %7s %10s %9s %8s %9s %8s %9s %6s %8s %6s %10s %16s %9s%n", "commands", "keys",
                "crash at", "acked", "cmd/s", "recovery s", "leader s", "all up s", "caught up", "replayed", "pairs", "wrong",
                "missing", "extra", "error rate", "uncertain o/n/bad", "replicas");
        for (Run r : runs) {
            GroundTruth.Verification v = r.verification();
            out.printf(Locale.ROOT, "%9d %8d %9d %9d %7.0f %10.2f %9.2f %8.2f %9.2f %8d %9d %6d %8d %6d %10.4f %16s %9s%n",
                    r.commands(), r.keys(), r.crash().load().issued(), r.crash().acknowledgedBeforeCrash(),
                    r.crash().commandsPerSecond(), r.restart().servingSeconds(), r.restart().leaderSeconds(),
                    r.restart().allUpSeconds(), r.restart().caughtUpSeconds(), r.restart().replayedEntries(), v.pairs(),
                    v.wrong(), v.missing(), v.extra(), v.errorRate(),
                    v.uncertain() + " " + v.uncertainOld() + "/" + v.uncertainNew() + "/" + v.uncertainBad(),
                    r.replicasIdentical() ? "identical" : "DIFFER");
        }
        out.printf(Locale.ROOT, "%nkill -9 of the leader under steady load (%.0f s before the kill, as long after the new "
                + "leader), then its restart:%n", options.leaderKillSteadySeconds());
        out.printf(Locale.ROOT, "%9s %7s %13s %13s %13s %9s %12s %11s %10s%n", "commands", "cmd/s", "new leader s",
                "longest gap s", "gap ended at", "unknown", "caught up s", "error rate", "check");
        for (Run r : runs) {
            LeaderKill k = r.leaderKill();
            GroundTruth.Verification v = r.verificationAfterLeaderKill();
            out.printf(Locale.ROOT, "%9d %7.0f %13.2f %13.2f %13s %9d %12.2f %11.4f %10s%n", r.commands(),
                    k.commandsPerSecond(), k.newLeaderSeconds(), k.longestGapSeconds(),
                    String.format(Locale.ROOT, "kill+%.2f", k.gapEndAfterKillSeconds()), k.load().unknown(),
                    k.restartCaughtUpSeconds(), v.errorRate(), v.clean() ? "clean" : "ERRORS");
        }
    }
}
