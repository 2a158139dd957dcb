package dev.strata.engine;

import dev.strata.engine.checkpoint.CheckpointFile;
import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.util.RefCount;

import java.nio.file.Path;
import java.util.List;

/**
 * A checkpoint: a consistent, immutable set of an engine's files at one sequence, pinned by hard
 * links in its own directories so compaction cannot delete them. Created by
 * {@code Engine.checkpoint()}; the newest few are kept. A caller streaming its files
 * {@link #tryPin() pins} it so it is not deleted meanwhile, and unpins it after. Thread-safe.
 */
public final class Checkpoint {
    private final CheckpointManifest manifest;
    private final Path tableDir;
    private final Path valueLogDir;
    private final RefCount pins;

    Checkpoint(CheckpointManifest manifest, Path tableDir, Path valueLogDir, Runnable onRetiredAndUnpinned) {
        this.manifest = manifest;
        this.tableDir = tableDir;
        this.valueLogDir = valueLogDir;
        this.pins = new RefCount(onRetiredAndUnpinned);
    }

    public CheckpointManifest manifest() {
        return manifest;
    }

    public long sequence() {
        return manifest.sequence();
    }

    /** The applied marker durable with this checkpoint, or null. */
    public byte[] appliedMarker() {
        return manifest.appliedMarker() == null ? null : manifest.appliedMarker().clone();
    }

    public List<CheckpointFile> files() {
        return manifest.files();
    }

    /** Where a file of this checkpoint can be read. */
    public Path path(CheckpointFile f) {
        return (f.kind() == CheckpointFile.Kind.TABLE ? tableDir : valueLogDir).resolve(f.name());
    }

    /** The directory holding the descriptor and the tables. */
    public Path directory() {
        return tableDir;
    }

    /** Keeps the checkpoint's files until {@link #unpin()}; false when it was already deleted. */
    public boolean tryPin() {
        return pins.tryAcquire();
    }

    public void unpin() {
        pins.release();
    }

    /** Drops the keeper's reference; the files go once nobody pins them. */
    void retire() {
        pins.release();
    }

    @Override
    public String toString() {
        return "Checkpoint[" + manifest.sequence() + ", " + manifest.files().size() + " files]";
    }
}
