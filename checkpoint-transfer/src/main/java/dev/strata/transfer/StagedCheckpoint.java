package dev.strata.transfer;

import dev.strata.engine.checkpoint.CheckpointManifest;
import dev.strata.engine.checkpoint.Delta;
import dev.strata.proto.internal.v1.Plan;

import java.nio.file.Path;
import java.util.List;

/**
 * A fetched plan, every file verified and linked under its name in {@code dir}: ready to be
 * swapped in ({@code FULL}, with {@code dir/CHECKPOINT} written) or ingested ({@code DELTAS}).
 *
 * @param term     the term of the last entry the installed state holds (0 when unknown)
 * @param index    the log index the installed state holds everything up to
 * @param manifest the checkpoint's manifest for {@code FULL}, else null
 * @param deltas   the deltas for {@code DELTAS}, oldest first, else empty
 */
public record StagedCheckpoint(Plan.Kind kind, long term, long index, Path dir, CheckpointManifest manifest,
                               List<Delta> deltas, TransferReport report) {
    public StagedCheckpoint {
        deltas = List.copyOf(deltas);
    }
}
