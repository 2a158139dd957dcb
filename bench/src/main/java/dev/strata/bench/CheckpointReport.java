package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.strata.cli.bench.MachineInfo;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything {@code strata-bench checkpoint} measured, as written to JSON, and its console table.
 *
 * @param full        scenario (a): a wiped follower catches up; the median by time of its runs
 * @param fullRunSeconds every run of (a)'s catch-up time, in order
 * @param copy        the baseline of (a): the leader's checkpoint files copied over loopback TCP, the
 *                    median by time of {@code copies}
 * @param copies      every run of the copy, in order
 * @param incremental scenario (b): a stopped follower catches up after a fraction of the keys changed
 * @param compression zstd over the leader's checkpoint in 1 MiB chunks, per level
 */
record CheckpointReport(String startedAt, MachineInfo machine, Options options, Load load, CatchUp full,
                        List<Double> fullRunSeconds, LoopbackCopy.Result copy, List<LoopbackCopy.Result> copies, CatchUp incremental, List<ChunkCompression.Result> compression,
                        List<Target> targets) {
    private static final double MiB = 1 << 20;

    /**
     * The run's options.
     *
     * @param keys         values loaded: dataSize / valueSize
     * @param nodeSettings the server configuration every node got on top of the defaults
     */
    record Options(long dataSize, int valueSize, double compressibility, long seed, long keys, int clients, int batch,
                   double changeFraction, int passes, int fullRuns, String dir, Map<String, String> nodeSettings) {}

    /**
     * The initial load.
     *
     * @param applySeconds  from the last acknowledged batch until every node applied everything
     * @param settleSeconds then until no node had compaction debt (or the wait gave up: {@code settled} false)
     */
    record Load(BatchLoader.Result writes, double applySeconds, double settleSeconds, boolean settled) {}

    /**
     * One catch-up of follower {@code follower}, from its restart until it applied the leader's
     * commit index. Receiver figures are the follower's {@code Status.checkpoints}, counted since
     * its restart; sender figures are the growth of the leader's during the catch-up.
     *
     * @param stoppedAtIndex        the follower's applied index when it was stopped
     * @param leaderLogStartIndex   the leader's first log index when the follower restarted (past {@code stoppedAtIndex})
     * @param written               keys written while it was down, before the purge's filler
     * @param purgeSeconds          time to make the leader purge its log past {@code stoppedAtIndex}
     * @param startSeconds          the part of {@code seconds} spent in {@code StrataServer.start} (engine open, log replay)
     * @param plan                  FULL, DELTAS, both ({@code FULL+DELTAS}) or NONE, from the install counters
     * @param leaderCheckpointBytes the size of the leader's latest checkpoint's files afterwards: its data as stored
     * @param leaderEngineBytes     the leader's engine directory on disk (its checkpoints' links count once)
     * @param followerDirectoryBytes the follower's data directory (engine, Raft log, staging) after catching up
     */
    record CatchUp(String scenario, long follower, long stoppedAtIndex, long leaderLogStartIndex, long written,
                   double purgeSeconds, double seconds, double startSeconds, String plan, long fullInstalls,
                   long deltaInstalls, long filesReceived, long filesReused, long receivedRawBytes, long receivedWireBytes,
                   long leaderSentRawBytes, long leaderSentWireBytes, long leaderLiveBytes, long leaderCheckpointIndex,
                   long leaderCheckpointBytes, long leaderEngineBytes, long followerDirectoryBytes) {}

    /** A target of issue 5: {@code value <= limit} passes. */
    record Target(String name, double value, double limit) {
        @JsonProperty
        boolean pass() {
            return value <= limit;
        }
    }

    /** The targets, from the figures. */
    static List<Target> targets(CatchUp full, LoopbackCopy.Result copy, CatchUp incremental) {
        return List.of(
                new Target("(b) wire bytes / (a) wire bytes",
                        ratio(incremental.receivedWireBytes(), full.receivedWireBytes()), 0.05),
                new Target("(a) wire bytes / leader's checkpoint size",
                        ratio(full.receivedWireBytes(), full.leaderCheckpointBytes()), 1),
                new Target("(a) time / copy time", copy.seconds() == 0 ? Double.NaN : full.seconds() / copy.seconds(), 2));
    }

    private static double ratio(long a, long b) {
        return b == 0 ? Double.NaN : (double) a / b;
    }

    /** Prints the results as a table. */
    void print(PrintStream out) {
        BatchLoader.Result w = load.writes();
        out.printf(Locale.ROOT, "%nload: %d keys, %.1f MiB in %.1f s (%.1f MiB/s, %d retries); all applied %.1f s later; "
                        + "%s after %.1f s more%n", w.keys(), w.userBytes() / MiB, w.seconds(), w.mbPerSecond(), w.retries(),
                load.applySeconds(), load.settled() ? "compactions settled" : "compactions still pending", load.settleSeconds());
        out.printf(Locale.ROOT, "%n%-34s %16s %16s%n", "", "(a) full", "(b) incremental");
        row(out, "follower", full.follower(), incremental.follower());
        row(out, "keys written while it was down", full.written(), incremental.written());
        rowF(out, "purge past its index, s", "%.1f", full.purgeSeconds(), incremental.purgeSeconds());
        out.printf(Locale.ROOT, "%-34s %16s %16s%n", "plan", full.plan(), incremental.plan());
        rowF(out, "catch-up time, s", "%.2f", full.seconds(), incremental.seconds());
        out.printf(Locale.ROOT, "%-34s %16s%n", "  (a) runs, s / copy time", fullRunSeconds.stream()
                .map(t -> String.format(Locale.ROOT, "%.2f/%.2f", t, t / copy.seconds())).toList());
        rowF(out, "  of which the node's start, s", "%.2f", full.startSeconds(), incremental.startSeconds());
        rowMiB(out, "received on the wire, MiB", full.receivedWireBytes(), incremental.receivedWireBytes());
        rowMiB(out, "received raw, MiB", full.receivedRawBytes(), incremental.receivedRawBytes());
        row(out, "files received", full.filesReceived(), incremental.filesReceived());
        row(out, "files reused", full.filesReused(), incremental.filesReused());
        out.printf(Locale.ROOT, "%-34s %16s %16s%n", "full / delta installs", full.fullInstalls() + " / " + full.deltaInstalls(),
                incremental.fullInstalls() + " / " + incremental.deltaInstalls());
        rowMiB(out, "leader sent on the wire, MiB", full.leaderSentWireBytes(), incremental.leaderSentWireBytes());
        rowMiB(out, "leader live bytes, MiB", full.leaderLiveBytes(), incremental.leaderLiveBytes());
        rowMiB(out, "leader checkpoint, MiB", full.leaderCheckpointBytes(), incremental.leaderCheckpointBytes());
        rowMiB(out, "leader engine directory, MiB", full.leaderEngineBytes(), incremental.leaderEngineBytes());
        rowMiB(out, "follower data directory, MiB", full.followerDirectoryBytes(), incremental.followerDirectoryBytes());
        out.printf(Locale.ROOT, "%ncopy baseline of (a): %d files, %.1f MiB over loopback TCP in %.2f s (%.1f MiB/s; "
                        + "fsync per file; median of %d runs: %s s)%n", copy.files(), copy.bytes() / MiB, copy.seconds(),
                copy.mbPerSecond(), copies.size(), copies.stream()
                        .map(c -> String.format(Locale.ROOT, "%.2f", c.seconds())).toList());
        out.printf(Locale.ROOT, "%nchunk compression over the leader's checkpoint (1 MiB chunks, median of %d passes):%n",
                options.passes());
        out.printf(Locale.ROOT, "%-10s %10s %10s %9s %18s %12s%n", "zstd level", "raw MiB", "wire MiB", "wire/raw",
                "chunks compressed", "MiB/s");
        for (ChunkCompression.Result c : compression) {
            out.printf(Locale.ROOT, "%-10d %10.1f %10.1f %9.3f %18s %12.1f%n", c.level(), c.rawBytes() / MiB, c.wireBytes() / MiB,
                    c.wireFraction(), c.compressedChunks() + " / " + c.chunks(), c.mbPerSecond());
        }
        out.printf(Locale.ROOT, "%ntargets:%n");
        for (Target t : targets) {
            out.printf(Locale.ROOT, "  %-4s %-42s %8.3f  (at most %s)%n", t.pass() ? "PASS" : "MISS", t.name(), t.value(),
                    t.limit() == (long) t.limit() ? Long.toString((long) t.limit()) : Double.toString(t.limit()));
        }
    }

    private static void row(PrintStream out, String name, long a, long b) {
        out.printf(Locale.ROOT, "%-34s %16d %16d%n", name, a, b);
    }

    private static void rowF(PrintStream out, String name, String format, double a, double b) {
        out.printf(Locale.ROOT, "%-34s %16s %16s%n", name, String.format(Locale.ROOT, format, a),
                String.format(Locale.ROOT, format, b));
    }

    private static void rowMiB(PrintStream out, String name, long a, long b) {
        rowF(out, name, "%.2f", a / MiB, b / MiB);
    }
}
