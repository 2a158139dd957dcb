package dev.strata.transfer;

import dev.strata.engine.Engine;
import dev.strata.engine.EngineOptions;
import dev.strata.engine.checkpoint.FileLinks;
import dev.strata.proto.internal.v1.Plan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Puts a staged checkpoint into an engine's directory while the engine is closed: a
 * {@code FULL} one is restored beside the directory ({@code <dir>.incoming}) and swapped in by
 * two renames, so a crash leaves either the old state or the new one, which
 * {@link #recover} settles before the engine next opens; {@code DELTAS} are ingested as new L0
 * tables (sequence numbers order them against what the engine has), which the engine's
 * manifest commits atomically.
 */
public final class CheckpointInstall {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointInstall.class);

    private CheckpointInstall() {}

    /**
     * Installs {@code staged} into {@code engineDir}; the engine there must be closed. Value logs
     * must live inside the engine's directory (the server's layout).
     */
    public static void install(StagedCheckpoint staged, Path engineDir, EngineOptions options) throws IOException {
        if (!options.valueLogDirFor(engineDir).equals(engineDir)) {
            throw new IllegalArgumentException("checkpoint install needs the value logs inside " + engineDir);
        }
        if (staged.kind() == Plan.Kind.FULL) {
            swapIn(staged, engineDir, options);
        } else if (!staged.deltas().isEmpty()) {
            try (Engine e = Engine.open(engineDir, options)) {
                e.ingest(staged.dir(), staged.deltas());
            }
        }
    }

    private static Path incoming(Path engineDir) {
        return engineDir.resolveSibling(engineDir.getFileName() + ".incoming");
    }

    private static Path old(Path engineDir) {
        return engineDir.resolveSibling(engineDir.getFileName() + ".old");
    }

    private static void swapIn(StagedCheckpoint staged, Path engineDir, EngineOptions options) throws IOException {
        Path incoming = incoming(engineDir);
        Path old = old(engineDir);
        FileLinks.deleteTree(incoming);
        Engine.restoreCheckpoint(staged.dir(), true, incoming, options);
        Path parent = engineDir.toAbsolutePath().getParent();
        if (Files.exists(engineDir)) {
            Files.move(engineDir, old, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(incoming, engineDir, StandardCopyOption.ATOMIC_MOVE);
        FileLinks.syncDirectory(parent);
        FileLinks.deleteTree(old);
    }

    /** Finishes a swap a crash interrupted, or drops a restore that never finished. Call before opening the engine. */
    public static void recover(Path engineDir) throws IOException {
        Path incoming = incoming(engineDir);
        Path old = old(engineDir);
        if (!Files.exists(engineDir) && Files.exists(old)) {
            // Crashed between the renames: the incoming state was complete, since the first rename came after it.
            Path from = Files.exists(incoming) ? incoming : old;
            LOG.warn("completing an interrupted checkpoint install: {} becomes {}", from, engineDir);
            Files.move(from, engineDir, StandardCopyOption.ATOMIC_MOVE);
            FileLinks.syncDirectory(engineDir.toAbsolutePath().getParent());
        }
        if (Files.exists(incoming)) {
            LOG.warn("dropping an unfinished checkpoint restore in {}", incoming);
            FileLinks.deleteTree(incoming);
        }
        FileLinks.deleteTree(old);
    }
}
