package dev.strata.engine;

import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.engine.util.Directories;
import dev.strata.engine.version.CheckpointContents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The checkpoints of one engine, in {@code <data>/checkpoints/<sequence>/} (and, when value logs
 * live elsewhere, {@code <valueLogDir>/checkpoints/<sequence>/} for their links). The newest
 * {@code keep} are kept; older ones are deleted once nobody pins them. A checkpoint is published
 * by renaming its directory into place after its descriptor is fsynced, so a crash never leaves a
 * partial one that looks complete; leftovers are removed at open. Thread-safe.
 */
final class Checkpoints {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpoints.class);
    static final String DIR = "checkpoints";
    private static final String TMP_SUFFIX = ".tmp";

    private final Path dataDir;
    private final Path valueLogDir;
    private final int keep;
    private final TreeMap<Long, Checkpoint> bySequence = new TreeMap<>();

    private Checkpoints(Path dataDir, Path valueLogDir, int keep) {
        this.dataDir = dataDir;
        this.valueLogDir = valueLogDir;
        this.keep = keep;
    }

    /** Loads the checkpoints a previous run left and removes unfinished ones. */
    static Checkpoints open(Path dataDir, Path valueLogDir, int keep) throws IOException {
        Checkpoints c = new Checkpoints(dataDir, valueLogDir, keep);
        Files.createDirectories(c.root(dataDir));
        Files.createDirectories(c.root(valueLogDir));
        try (var names = Files.list(c.root(dataDir))) {
            for (Path p : (Iterable<Path>) names::iterator) {
                String name = p.getFileName().toString();
                Long sequence = parse(name);
                if (sequence == null || !Files.exists(p.resolve(CheckpointManifest.FILE_NAME))) {
                    LOG.info("removing unfinished checkpoint {}", p);
                    FileLinks.deleteTree(p); // its value-log links, if elsewhere, go below
                    continue;
                }
                CheckpointManifest m = CheckpointManifest.readFrom(p);
                c.bySequence.put(sequence, c.newCheckpoint(m));
            }
        }
        if (!valueLogDir.equals(dataDir)) {
            try (var names = Files.list(c.root(valueLogDir))) {
                for (Path p : (Iterable<Path>) names::iterator) {
                    Long sequence = parse(p.getFileName().toString());
                    if (sequence == null || !c.bySequence.containsKey(sequence)) {
                        FileLinks.deleteTree(p);
                    }
                }
            }
        }
        c.retireOld();
        return c;
    }

    private Path root(Path dir) {
        return dir.resolve(DIR);
    }

    private static String name(long sequence) {
        return String.format("%016x", sequence);
    }

    private static Long parse(String name) {
        if (name.length() != 16) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(name, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private Checkpoint newCheckpoint(CheckpointManifest m) {
        Path tables = root(dataDir).resolve(name(m.sequence()));
        Path logs = valueLogDir.equals(dataDir) ? tables : root(valueLogDir).resolve(name(m.sequence()));
        return new Checkpoint(m, tables, logs, () -> delete(tables, logs));
    }

    private static void delete(Path tables, Path logs) {
        try {
            FileLinks.deleteTree(tables);
            FileLinks.deleteTree(logs);
        } catch (IOException e) {
            LOG.warn("cannot delete released checkpoint {}: {}", tables, e.toString());
        }
    }

    /**
     * Publishes a checkpoint of {@code manifest}'s files, which must all be live in the engine
     * (the caller holds their version) in {@code dataDir} and {@code valueLogDir}. Returns the
     * existing one when a checkpoint at that sequence already exists.
     */
    synchronized Checkpoint create(CheckpointManifest given) throws IOException {
        // What is linked is what is described: the engine's own writing of the manifest.
        CheckpointManifest manifest = CheckpointContents.of(given);
        Checkpoint existing = bySequence.get(manifest.sequence());
        if (existing != null) {
            return existing;
        }
        String name = name(manifest.sequence());
        Path tmp = root(dataDir).resolve(name + TMP_SUFFIX);
        Path logs = valueLogDir.equals(dataDir) ? tmp : root(valueLogDir).resolve(name);
        FileLinks.deleteTree(tmp);
        Files.createDirectories(tmp);
        Files.createDirectories(logs);
        for (CheckpointFile f : manifest.files()) {
            boolean table = f.kind() == CheckpointFile.Kind.TABLE;
            FileLinks.link((table ? dataDir : valueLogDir).resolve(f.name()), (table ? tmp : logs).resolve(f.name()));
        }
        if (!logs.equals(tmp)) {
            Directories.sync(logs);
        }
        manifest.writeTo(tmp);
        Directories.sync(tmp);
        Path published = root(dataDir).resolve(name);
        Files.move(tmp, published, StandardCopyOption.ATOMIC_MOVE);
        Directories.sync(root(dataDir));
        Checkpoint c = newCheckpoint(manifest);
        bySequence.put(manifest.sequence(), c);
        retireOld();
        LOG.info("checkpoint at sequence {}: {} files, {} bytes", manifest.sequence(), manifest.files().size(),
                manifest.totalBytes());
        return c;
    }

    private void retireOld() {
        while (bySequence.size() > keep) {
            bySequence.pollFirstEntry().getValue().retire();
        }
    }

    /** The newest checkpoint, or null. It stays valid for a caller that {@link Checkpoint#tryPin() pins} it. */
    synchronized Checkpoint latest() {
        return bySequence.isEmpty() ? null : bySequence.lastEntry().getValue();
    }

    /** The kept checkpoints, oldest first. */
    synchronized List<Checkpoint> all() {
        return new ArrayList<>(bySequence.values());
    }

    /** Drops every checkpoint (after the engine's state was replaced by another's). */
    synchronized void clear() {
        while (!bySequence.isEmpty()) {
            bySequence.pollFirstEntry().getValue().retire();
        }
    }
}
