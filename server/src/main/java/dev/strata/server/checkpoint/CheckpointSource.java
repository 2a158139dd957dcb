package dev.strata.server.checkpoint;

import dev.strata.engine.Checkpoint;
import dev.strata.engine.DeltaChain;

/** A node's checkpoints and incremental chain, as the transfer service ships them. */
public interface CheckpointSource {
    /** This node's id, named in the plans it makes. */
    long nodeId();

    /**
     * The newest checkpoint, or one taken now when {@code fresh} or when there is none yet.
     *
     * @throws RuntimeException (a {@code NodeUnavailableException}) while the engine is closed
     */
    Checkpoint checkpoint(boolean fresh);

    /** The engine's incremental chain. */
    DeltaChain deltaChain();
}
