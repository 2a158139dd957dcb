package dev.strata.it.torture;

import dev.strata.testkit.cluster.Digest;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What one run found. It passed when both checkers accept the history, no acknowledged write
 * was lost, every node holds the same contents, and nothing else went wrong ({@link #problems}:
 * a node that did not recover, a failed write that was applied, ...).
 *
 * @param maxUnavailableMillis the longest stretch of the traffic in which no write succeeded
 */
public record RunResult(
        String nemesis,
        long seed,
        long operations,
        long ok,
        long failed,
        long unknown,
        int faultsInjected,
        boolean linearizable,
        String linearizabilityReport,
        boolean serializableReadsValid,
        String serializableReport,
        long lostWrites,
        Map<Long, Digest> digests,
        List<String> problems,
        long maxUnavailableMillis,
        Path history) {

    public boolean passed() {
        return linearizable && serializableReadsValid && lostWrites == 0 && problems.isEmpty();
    }

    /** Anomalies: each failed check counts once, and each problem. */
    public int anomalies() {
        return (linearizable ? 0 : 1) + (serializableReadsValid ? 0 : 1) + problems.size();
    }

    /** A few lines saying what failed, for a test's assertion message. */
    public String explanation() {
        StringBuilder b = new StringBuilder("run " + nemesis + " seed " + seed + ": " + operations + " operations ("
                + ok + " ok, " + failed + " failed, " + unknown + " unknown), " + faultsInjected + " faults; history in " + history);
        if (!linearizable) {
            b.append("\nnot linearizable:\n").append(linearizabilityReport);
        }
        if (!serializableReadsValid) {
            b.append("\nserializable reads:\n").append(serializableReport);
        }
        problems.forEach(p -> b.append("\n").append(p));
        return b.toString();
    }
}
