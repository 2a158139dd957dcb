package dev.strata.bench;

import dev.strata.cli.ByteSizeConverter;
import dev.strata.cli.bench.MachineInfo;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.proto.v1.CheckpointStatus;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.StatusResponse;
import dev.strata.testkit.Await;
import dev.strata.testkit.cluster.InProcessCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * {@code strata-bench checkpoint}: how a follower catches up from shipped checkpoints (issue 5,
 * compressed incremental checkpoints). Three nodes run in this process. After a load, (a) a
 * follower is wiped and catches up from a full checkpoint, compared with a plain copy of the
 * leader's checkpoint over loopback TCP; (b) a follower is stopped, a fraction of the keys change
 * and it catches up with what it still holds. In both, the leader's log is purged past the
 * follower's index first, so the log cannot serve it. Last, zstd levels 1 and 3 are compared
 * offline on the leader's checkpoint in the transfer's 1 MiB chunks.
 */
@Command(name = "checkpoint", sortOptions = false,
        description = {"Measures checkpoint shipping in a three-node cluster in this process: a wiped follower catching "
                + "up (full) against a plain loopback copy, a stopped follower catching up after 1%% of the keys "
                + "changed (incremental), and zstd levels over the leader's checkpoint in 1 MiB chunks."})
final class CheckpointCommand implements Callable<Integer> {
    /** Checkpoints (and log purges) every 50 entries, as CheckpointIT: a purge past a follower takes seconds. */
    private static final String SNAPSHOT_ENTRIES = "50";
    /** The log is purged a whole segment at a time: small segments let it start right after a checkpoint. */
    private static final String LOG_SEGMENT_SIZE = "1MiB";
    /** Batches of the purge's filler: each is one log entry, a few of them per round. */
    private static final int FILLER_BATCHES = 20;
    private static final int FILLER_BATCH_SIZE = 4;
    /** How long to wait for compactions to settle before a scenario; a measurement on an unsettled engine still runs. */
    private static final Duration SETTLE = Duration.ofMinutes(5);

    @Spec
    CommandSpec spec;

    @Option(names = "--data-size", converter = ByteSizeConverter.class, defaultValue = "1GiB", paramLabel = "BYTES",
            description = "Value bytes to load: data-size / value-size keys (${DEFAULT-VALUE}).")
    long dataSize;

    @Option(names = "--value-size", defaultValue = "1024", paramLabel = "BYTES",
            description = "Size of each value (${DEFAULT-VALUE}).")
    int valueSize;

    @Option(names = "--compressibility", defaultValue = "0.5", paramLabel = "FRACTION",
            description = "Fraction of each value that compresses away, 0 to 1 (${DEFAULT-VALUE}); values as the engine "
                    + "benchmark makes them.")
    double compressibility;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of values and changed keys (default: a fresh one, printed).")
    Long seed;

    @Option(names = "--clients", defaultValue = "4", paramLabel = "N",
            description = "Client threads of the load, each with one Batch in flight (${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--batch", defaultValue = "128", paramLabel = "N", description = "Puts per Batch call (${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--change-fraction", defaultValue = "0.01", paramLabel = "FRACTION",
            description = "Fraction of the keys overwritten while the follower of (b) is down (${DEFAULT-VALUE}).")
    double changeFraction;

    @Option(names = "--write-buffer-size", converter = ByteSizeConverter.class, defaultValue = "16MiB", paramLabel = "BYTES",
            description = "Each node's memtable size, strata.engine.write-buffer-size (${DEFAULT-VALUE}; the server's "
                    + "default is 32MiB).")
    long writeBufferSize;

    @Option(names = "--block-cache-size", converter = ByteSizeConverter.class, defaultValue = "32MiB", paramLabel = "BYTES",
            description = "Each node's block cache, strata.engine.block-cache-size (${DEFAULT-VALUE}; the server's "
                    + "default is 64MiB).")
    long blockCacheSize;

    @Option(names = "--passes", defaultValue = "3", paramLabel = "N",
            description = "Runs of the copy baseline and of each zstd level over the checkpoint; the medians are "
                    + "reported (${DEFAULT-VALUE}).")
    int passes;

    @Option(names = "--full-runs", defaultValue = "3", paramLabel = "N",
            description = "Runs of scenario (a), each with a freshly wiped follower; the median is reported (${DEFAULT-VALUE}).")
    int fullRuns;

    @Option(names = "--timeout", defaultValue = "1800", paramLabel = "SECONDS",
            description = "Longest wait for a leader, an apply, a purge or a catch-up (${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Mixin
    WorkDirectoryOptions workDirectory = new WorkDirectoryOptions();

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    private Duration timeout;
    private InProcessCluster cluster;
    /** The next key number nobody wrote: keys written after the load take numbers from here. */
    private long nextNewKey;

    @Override
    public Integer call() throws Exception {
        validate();
        timeout = Duration.ofSeconds(timeoutSeconds);
        long keys = dataSize / valueSize;
        long runSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("strata.raft.snapshot.threshold-entries", SNAPSHOT_ENTRIES);
        settings.put("strata.raft.log.segment-size", LOG_SEGMENT_SIZE);
        settings.put("strata.engine.write-buffer-size", Long.toString(writeBufferSize));
        settings.put("strata.engine.block-cache-size", Long.toString(blockCacheSize));
        String startedAt = Instant.now().toString();
        System.out.printf(Locale.ROOT, "strata-bench checkpoint: 3 nodes in this JVM, %d keys of %d-byte values (%.1f MiB, "
                        + "compressibility %.2f), seed %d, %d clients x %d puts per batch%n", keys, valueSize,
                keys * (double) valueSize / (1 << 20), compressibility, runSeed, clients, batch);
        System.out.println("node settings on top of the defaults: " + settings);

        try (DbDirectory root = workDirectory.open()) {
            System.out.println("data in " + root.path());
            CheckpointReport.Options options = new CheckpointReport.Options(dataSize, valueSize, compressibility, runSeed, keys,
                    clients, batch, changeFraction, passes, fullRuns, root.path().toString(), settings);
            CheckpointReport.Load load;
            CheckpointReport.CatchUp full;
            List<Double> fullSeconds;
            List<LoopbackCopy.Result> copies = new ArrayList<>();
            List<ChunkCompression.Result> compression = new ArrayList<>();
            CheckpointReport.CatchUp incremental;
            // The server's own buffers and limits, not the cluster tests' smaller ones, under these settings.
            Map<String, String> nodeSettings = new LinkedHashMap<>(InProcessCluster.serverSizes());
            nodeSettings.putAll(settings);
            try (InProcessCluster c = InProcessCluster.start(root.path().resolve("cluster"), 3, nodeSettings)) {
                cluster = c;
                nextNewKey = keys;
                load = load(keys, runSeed);

                List<CheckpointReport.CatchUp> fulls = new ArrayList<>();
                for (int run = 0; run < fullRuns; run++) {
                    fulls.add(catchUp("full", true, () -> writeNewKeys(Math.max(100, keys / 1000), runSeed + 1)));
                }
                fullSeconds = fulls.stream().map(CheckpointReport.CatchUp::seconds).toList();
                full = fulls.stream().sorted(Comparator.comparingDouble(CheckpointReport.CatchUp::seconds)).toList()
                        .get(fulls.size() / 2);

                Path pinned = pinLatestCheckpoint(cluster.awaitLeader(timeout), root.path().resolve("leader-checkpoint"));
                System.out.println("copying the leader's checkpoint over loopback TCP ...");
                for (int pass = 0; pass < passes; pass++) {
                    copies.add(LoopbackCopy.copy(pinned, root.path().resolve("copy")));
                    FileLinks.deleteTree(root.path().resolve("copy"));
                }
                System.out.println("compressing the leader's checkpoint in 1 MiB chunks ...");
                List<Path> files = regularFiles(pinned);
                for (int level : new int[] {1, 3}) {
                    compression.add(ChunkCompression.measure(files, level, passes));
                }
                FileLinks.deleteTree(pinned);

                settle(); // after (a)'s writes and checkpoints
                long changed = Math.max(1, Math.round(keys * changeFraction));
                incremental = catchUp("incremental", false, () -> overwrite(keys, changed, runSeed + 2));
            } finally {
                cluster = null;
            }
            LoopbackCopy.Result copy = copies.stream().sorted(Comparator.comparingDouble(LoopbackCopy.Result::seconds))
                    .toList().get(copies.size() / 2);
            CheckpointReport report = new CheckpointReport(startedAt, MachineInfo.current(), options, load, full, fullSeconds, copy,
                    copies, incremental, compression, CheckpointReport.targets(full, copy, incremental));
            report.print(System.out);
            if (json != null) {
                JsonReport.write(json, report);
                System.out.println("JSON report: " + json);
            }
        }
        return 0;
    }

    private void validate() {
        if (valueSize < 1) {
            throw new ParameterException(spec.commandLine(), "--value-size must be >= 1, was " + valueSize);
        }
        // At most 2^31 - 1 keys: the changed keys of (b) are drawn into a BitSet.
        if (dataSize / valueSize < 100 || dataSize / valueSize > Integer.MAX_VALUE) {
            throw new ParameterException(spec.commandLine(), "--data-size must hold from 100 to 2^31 - 1 values, was "
                    + dataSize + " / " + valueSize);
        }
        if (!(compressibility >= 0 && compressibility <= 1)) {
            throw new ParameterException(spec.commandLine(), "--compressibility must be in [0, 1], was " + compressibility);
        }
        if (!(changeFraction > 0 && changeFraction <= 1)) {
            throw new ParameterException(spec.commandLine(), "--change-fraction must be in (0, 1], was " + changeFraction);
        }
        if (clients < 1 || batch < 1 || passes < 1 || fullRuns < 1 || timeoutSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--clients, --batch, --passes, --full-runs and --timeout must be >= 1, "
                    + "were " + clients + ", " + batch + ", " + passes + ", " + fullRuns + ", " + timeoutSeconds);
        }
        // The server's default request limit is 24 MiB; leave room for keys and framing.
        if ((long) batch * (valueSize + Keys.SIZE + 16) > 16L << 20) {
            throw new ParameterException(spec.commandLine(), "--batch x --value-size must stay under 16 MiB, was "
                    + batch + " x " + valueSize);
        }
    }

    /** Loads keys 0 .. keys-1, waits until every node applied them, then for compactions to settle. */
    private CheckpointReport.Load load(long keys, long runSeed) throws InterruptedException {
        long leader = cluster.awaitLeader(timeout);
        System.out.printf(Locale.ROOT, "loading %d keys through node %d ...%n", keys, leader);
        BatchLoader.Result writes = new BatchLoader(kv(leader), clients, batch, valueSize, compressibility)
                .write(keys, i -> i, runSeed);
        long start = System.nanoTime();
        for (long id : cluster.runningIds()) {
            cluster.awaitApplied(id, timeout);
        }
        double applySeconds = (System.nanoTime() - start) / 1e9;
        start = System.nanoTime();
        boolean settled = settle();
        return new CheckpointReport.Load(writes, applySeconds, (System.nanoTime() - start) / 1e9, settled);
    }

    /** Waits up to {@link #SETTLE} until no running node reports compaction debt; false when it gave up. */
    private boolean settle() {
        try {
            Await.until(() -> cluster.runningIds().stream()
                    .allMatch(id -> cluster.status(id).getEngine().getPendingCompactionBytes() == 0), SETTLE, "compactions");
            return true;
        } catch (AssertionError e) {
            System.out.println("compactions still pending after " + SETTLE.toSeconds() + " s; measuring anyway");
            return false;
        }
    }

    /** What a scenario writes while its follower is down; returns the keys it wrote. */
    private interface Writes {
        long run() throws InterruptedException;
    }

    /**
     * One scenario: stops a follower (and wipes its data when {@code wipe}), runs {@code writes},
     * purges the leader's log past the follower's index, restarts it and times its catch-up.
     */
    private CheckpointReport.CatchUp catchUp(String scenario, boolean wipe, Writes writes) throws Exception {
        long leader = cluster.awaitLeader(timeout);
        long follower = cluster.runningIds().stream().filter(id -> id != leader).findFirst().orElseThrow();
        cluster.awaitApplied(follower, timeout);
        long stoppedAt = cluster.status(follower).getAppliedIndex();
        System.out.printf(Locale.ROOT, "(%s) stopping node %d at index %d%s ...%n", scenario, follower, stoppedAt,
                wipe ? " and deleting its data" : "");
        cluster.stopNode(follower);
        Path followerDir = cluster.dataDir(follower);
        if (wipe) {
            FileLinks.deleteTree(followerDir);
        }
        long written = writes.run();
        long purgeStart = System.nanoTime();
        purgeThrough(stoppedAt);
        double purgeSeconds = (System.nanoTime() - purgeStart) / 1e9;

        long source = cluster.awaitLeader(timeout);
        StatusResponse before = cluster.status(source);
        System.out.printf(Locale.ROOT, "(%s) restarting node %d; node %d leads, its log starts at %d ...%n", scenario, follower,
                source, before.getLogStartIndex());
        long start = System.nanoTime();
        if (wipe) {
            // A member that lost its disk comes back as a new member (it may not vote before it has caught up).
            cluster.replaceWipedNode(follower, timeout);
        } else {
            cluster.startNode(follower);
        }
        double startSeconds = (System.nanoTime() - start) / 1e9;
        cluster.awaitApplied(follower, timeout);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (wipe) {
            cluster.promote(follower, timeout);
        }

        CheckpointStatus got = cluster.status(follower).getCheckpoints();
        StatusResponse after = cluster.status(source);
        CheckpointStatus sent = after.getCheckpoints();
        String plan = got.getFullInstalls() > 0 && got.getDeltaInstalls() > 0 ? "FULL+DELTAS"
                : got.getFullInstalls() > 0 ? "FULL" : got.getDeltaInstalls() > 0 ? "DELTAS" : "NONE";
        System.out.printf(Locale.ROOT, "(%s) node %d caught up in %.2f s (%s, %.1f MiB on the wire)%n", scenario, follower,
                seconds, plan, got.getReceivedWireBytes() / (double) (1 << 20));
        return new CheckpointReport.CatchUp(scenario, follower, stoppedAt, before.getLogStartIndex(), written, purgeSeconds,
                seconds, startSeconds, plan, got.getFullInstalls(), got.getDeltaInstalls(), got.getFilesReceived(),
                got.getFilesReused(), got.getReceivedRawBytes(), got.getReceivedWireBytes(),
                sent.getSentRawBytes() - before.getCheckpoints().getSentRawBytes(),
                sent.getSentWireBytes() - before.getCheckpoints().getSentWireBytes(),
                after.getEngine().getLiveBytes(), sent.getLatestIndex(), DbDirectory.sizeOf(latestCheckpoint(source)),
                DbDirectory.sizeOf(cluster.engineDir(source)), DbDirectory.sizeOf(followerDir));
    }

    /**
     * Checkpoints on every running node, with a little filler written between rounds so Raft has
     * entries to purge, until the leader's log starts after {@code index} (as CheckpointIT's
     * purgeThrough does).
     */
    private void purgeThrough(long index) {
        BatchLoader filler = new BatchLoader(kv(cluster.awaitLeader(timeout)), 1, FILLER_BATCH_SIZE, valueSize,
                compressibility);
        Await.until(() -> {
            cluster.checkpointAll();
            try {
                writeNewKeys(filler, FILLER_BATCHES * FILLER_BATCH_SIZE, nextNewKey);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return cluster.status(cluster.awaitLeader(timeout)).getLogStartIndex() > index + 1;
        }, timeout, "the leader to purge its log past index " + index);
    }

    /** A KV stub of node {@code id} without a deadline: the loaders set one per call. */
    private KVGrpc.KVBlockingStub kv(long id) {
        return KVGrpc.newBlockingStub(cluster.channel(id));
    }

    /** Writes {@code count} keys never written before; returns {@code count}. */
    private long writeNewKeys(long count, long valueSeed) throws InterruptedException {
        return writeNewKeys(new BatchLoader(kv(cluster.awaitLeader(timeout)), clients, batch, valueSize, compressibility),
                count, valueSeed);
    }

    private long writeNewKeys(BatchLoader loader, long count, long valueSeed) throws InterruptedException {
        long first = nextNewKey;
        nextNewKey += count;
        loader.write(count, i -> first + i, valueSeed);
        return count;
    }

    /** Overwrites {@code count} distinct keys of [0, keys), chosen at random, with new values; returns {@code count}. */
    private long overwrite(long keys, long count, long runSeed) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(runSeed);
        BitSet chosen = new BitSet((int) keys);
        for (long n = 0; n < count; ) {
            int k = (int) random.nextLong(keys);
            if (!chosen.get(k)) {
                chosen.set(k);
                n++;
            }
        }
        long[] numbers = chosen.stream().asLongStream().toArray();
        new BatchLoader(kv(cluster.awaitLeader(timeout)), clients, batch, valueSize, compressibility)
                .write(numbers.length, i -> numbers[(int) i], runSeed);
        return count;
    }

    /**
     * The directory of the newest checkpoint of node {@code id}: {@code <engine>/checkpoints/<sequence>}
     * (the engine's value logs live beside its tables in the server, so one directory holds every file).
     */
    private Path latestCheckpoint(long id) throws IOException {
        try (Stream<Path> dirs = Files.list(cluster.engineDir(id).resolve("checkpoints"))) {
            return dirs.filter(p -> p.getFileName().toString().matches("[0-9a-f]{16}"))
                    .max(Path::compareTo)
                    .orElseThrow(() -> new IOException("node " + id + " has no checkpoint"));
        }
    }

    /**
     * Hard-links the files of the leader's newest checkpoint into {@code into}, so they stay as
     * they are while the copy and the compression read them, whatever the engine retires.
     */
    private Path pinLatestCheckpoint(long leader, Path into) throws IOException {
        Files.createDirectories(into);
        for (Path f : regularFiles(latestCheckpoint(leader))) {
            Files.createLink(into.resolve(f.getFileName()), f);
        }
        return into;
    }

    private static List<Path> regularFiles(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
