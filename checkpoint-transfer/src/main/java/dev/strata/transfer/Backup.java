package dev.strata.transfer;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.WalMode;
import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.engine.checkpoint.DeltaLog;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.proto.internal.v1.ContentId;
import dev.strata.proto.internal.v1.Plan;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Backups built on checkpoint shipping, as {@code etcdctl snapshot save} and RocksDB's
 * incremental {@code BackupEngine} are used. A backup directory holds one full checkpoint,
 * {@code full-<index>/} (its {@code CHECKPOINT} manifest and files), and the deltas saved
 * after it, {@code delta-<from>-<to>/} (a {@code DELTAS} record log and their files), each
 * published by renaming a finished temporary directory. {@link #save} adds what the directory
 * lacks: the deltas after its newest index when the cluster still retains them, else a new
 * full checkpoint that reuses every file the directory already holds and supersedes it.
 * {@link #restore} seeds a node's empty data directory from it, verifying every file.
 */
public final class Backup {
    private static final String FULL = "full-";
    private static final String DELTA = "delta-";
    private static final String DELTAS_LOG = "DELTAS";
    private static final String TMP = ".tmp";

    /** What {@link #save} did: the plan kind, the index the backup now reaches, and the files and bytes it received. */
    public record SaveResult(Plan.Kind kind, long index, int filesWritten, long bytesWritten, TransferReport transfer) {}

    /** What {@link #restore} seeded: the index, and the files verified. */
    public record RestoreResult(long index, int files, long bytes) {}

    private Backup() {}

    /**
     * Saves a checkpoint of the cluster reachable at {@code endpoints}, in plaintext, into
     * {@code dir}: all of it the first time, only what is new after that.
     */
    public static SaveResult save(Path dir, List<String> endpoints) throws IOException {
        return save(dir, endpoints, InsecureChannelCredentials.create());
    }

    /**
     * Saves a checkpoint as {@link #save(Path, List)} does, reaching the client ports with
     * {@code credentials} (TLS, and a client certificate for clusters that require one).
     */
    public static SaveResult save(Path dir, List<String> endpoints, ChannelCredentials credentials) throws IOException {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("no endpoints to save a checkpoint from");
        }
        Files.createDirectories(dir);
        Contents have = Contents.read(dir);
        Map<ContentId, Path> reusable = have.files();
        AtomicInteger next = new AtomicInteger();
        StagingArea staging = new StagingArea(dir.resolve("staging" + TMP));
        StagedCheckpoint staged;
        try (CheckpointFetcher fetcher = new CheckpointFetcher(staging, new CheckpointStats(), 3 * endpoints.size(),
                Duration.ofSeconds(60), credentials)) {
            staged = fetcher.fetch(new CheckpointFetcher.Request(have.index, have.full != null, true, 0, reusable),
                    () -> endpoints.get(Math.floorMod(next.getAndIncrement(), endpoints.size())));
        }
        try {
            if (staged.kind() == Plan.Kind.DELTAS) {
                if (staged.deltas().isEmpty()) {
                    return new SaveResult(Plan.Kind.DELTAS, have.index, 0, 0, staged.report());
                }
                long from = staged.deltas().get(0).fromExclusive();
                Path target = dir.resolve(DELTA + hex(from) + "-" + hex(staged.index()));
                publish(staged.dir(), target, tmp -> {
                    DeltaLog.write(tmp.resolve(DELTAS_LOG), staged.deltas());
                });
                return new SaveResult(Plan.Kind.DELTAS, staged.index(), staged.report().filesReceived(),
                        staged.report().rawBytes(), staged.report());
            }
            Path target = dir.resolve(FULL + hex(staged.index()));
            publish(staged.dir(), target, tmp -> { }); // CHECKPOINT is already staged
            for (Path old : have.superseded(target)) {
                FileLinks.deleteTree(old); // the new full checkpoint replaces them
            }
            return new SaveResult(Plan.Kind.FULL, staged.index(), staged.report().filesReceived(), staged.report().rawBytes(),
                    staged.report());
        } finally {
            FileLinks.deleteTree(staging.directory());
        }
    }

    private interface DirWriter {
        void write(Path tmp) throws IOException;
    }

    /** Moves the staged files (received, or links to files the backup held) into {@code target} by way of a temporary directory. */
    private static void publish(Path staged, Path target, DirWriter extra) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + TMP);
        FileLinks.deleteTree(tmp);
        Files.createDirectories(tmp);
        try (var files = Files.list(staged)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.move(f, tmp.resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE);
            }
        }
        extra.write(tmp);
        FileLinks.syncDirectory(tmp);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        FileLinks.syncDirectory(target.getParent());
    }

    /**
     * Seeds {@code dataDir} (a node's {@code strata.data.dir}, which must hold no engine and no
     * Raft log) from the backup in {@code dir}: its full checkpoint, then its deltas in order.
     */
    public static RestoreResult restore(Path dir, Path dataDir) throws IOException {
        Contents have = Contents.read(dir);
        if (have.full == null) {
            throw new IOException(dir + " holds no backup (no " + FULL + "<index> directory)");
        }
        Path engineDir = dataDir.resolve("engine");
        for (Path p : List.of(engineDir, dataDir.resolve("raft"))) {
            if (Files.exists(p) && !isEmpty(p)) {
                throw new IOException("cannot restore into " + dataDir + ": " + p + " is not empty (restore seeds a new "
                        + "or wiped node)");
            }
        }
        EngineOptions options = EngineOptions.builder().walMode(WalMode.DISABLED).build();
        CheckpointManifest m = Engine.restoreCheckpoint(have.full, false, engineDir, options);
        int files = m.files().size();
        long bytes = m.totalBytes();
        long index = m.sequence();
        if (!have.deltas.isEmpty()) {
            try (Engine e = Engine.open(engineDir, options)) {
                for (Path d : have.deltas.values()) {
                    List<Delta> deltas = readDeltas(d);
                    Path staging = dataDir.resolve("restore" + TMP);
                    FileLinks.deleteTree(staging);
                    Files.createDirectories(staging);
                    try {
                        for (Delta delta : deltas) {
                            for (CheckpointFile f : delta.files()) {
                                Files.copy(d.resolve(f.name()), staging.resolve(f.name())); // ingest moves what it takes
                                files++;
                                bytes += f.content().size();
                            }
                        }
                        e.ingest(staging, deltas); // verifies every file against its content id
                    } finally {
                        FileLinks.deleteTree(staging);
                    }
                    index = deltas.get(deltas.size() - 1).toInclusive();
                }
            }
        }
        return new RestoreResult(index, files, bytes);
    }

    private static boolean isEmpty(Path p) throws IOException {
        try (var s = Files.list(p)) {
            return s.findAny().isEmpty();
        }
    }

    private static String hex(long index) {
        return String.format("%016x", index);
    }

    private static List<Delta> readDeltas(Path deltaDir) throws IOException {
        List<Delta> out;
        try {
            out = DeltaLog.readWhole(deltaDir.resolve(DELTAS_LOG));
        } catch (CorruptionException e) {
            throw new IOException(deltaDir.resolve(DELTAS_LOG) + " is damaged: " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            throw new IOException(deltaDir.resolve(DELTAS_LOG) + " lists no deltas");
        }
        return out;
    }

    /** The newest full checkpoint of a backup directory and the contiguous deltas after it. */
    private record Contents(Path full, CheckpointManifest manifest, TreeMap<Long, Path> deltas, long index,
                            List<Path> all) {
        static Contents read(Path dir) throws IOException {
            TreeMap<Long, Path> fulls = new TreeMap<>();
            TreeMap<Long, Path> deltaDirs = new TreeMap<>();
            List<Path> all = new ArrayList<>();
            try (var s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String n = p.getFileName().toString();
                    if (n.endsWith(TMP)) {
                        FileLinks.deleteTree(p); // an interrupted save
                    } else if (n.startsWith(FULL)) {
                        fulls.put(Long.parseUnsignedLong(n.substring(FULL.length()), 16), p);
                        all.add(p);
                    } else if (n.startsWith(DELTA)) {
                        deltaDirs.put(Long.parseUnsignedLong(n.substring(DELTA.length(), DELTA.length() + 16), 16), p);
                        all.add(p);
                    }
                }
            }
            if (fulls.isEmpty()) {
                return new Contents(null, null, new TreeMap<>(), 0, all);
            }
            Path full = fulls.lastEntry().getValue();
            CheckpointManifest m = CheckpointManifest.readFrom(full);
            long index = m.sequence();
            TreeMap<Long, Path> chain = new TreeMap<>();
            for (var e : deltaDirs.entrySet()) {
                String n = e.getValue().getFileName().toString();
                long from = e.getKey();
                long to = Long.parseUnsignedLong(n.substring(n.lastIndexOf('-') + 1), 16);
                if (from <= index && to > index) {
                    chain.put(from, e.getValue());
                    index = to;
                }
            }
            return new Contents(full, m, chain, index, all);
        }

        /** Every file the backup holds, by content, for a new save to reuse. */
        Map<ContentId, Path> files() throws IOException {
            Map<ContentId, Path> out = new HashMap<>();
            if (full == null) {
                return out;
            }
            for (CheckpointFile f : manifest.files()) {
                out.put(ContentIds.toProto(f.content()), full.resolve(f.name()));
            }
            for (Path d : deltas.values()) {
                for (Delta delta : readDeltas(d)) {
                    for (CheckpointFile f : delta.files()) {
                        out.put(ContentIds.toProto(f.content()), d.resolve(f.name()));
                    }
                }
            }
            return out;
        }

        /** The directories a new full checkpoint at {@code replacement} makes obsolete: all the others. */
        List<Path> superseded(Path replacement) {
            return all.stream().filter(p -> !p.equals(replacement)).toList();
        }
    }
}
