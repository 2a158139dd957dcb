package dev.strata.server.raft;

import dev.strata.engine.Checkpoint;
import dev.strata.engine.DeltaChain;
import dev.strata.engine.Engine;
import dev.strata.server.checkpoint.CheckpointSource;

import java.util.function.LongSupplier;

/** This node's engine as the checkpoint service ships it; unavailable while the engine is paused or closed. */
final class EngineCheckpointSource implements CheckpointSource {
    private final LongSupplier nodeId;
    private final AppliedEngine engine;

    /** @param nodeId this node's id (known once Ratis has initialized the state machine) */
    EngineCheckpointSource(LongSupplier nodeId, AppliedEngine engine) {
        this.nodeId = nodeId;
        this.engine = engine;
    }

    @Override
    public long nodeId() {
        return nodeId.getAsLong();
    }

    @Override
    public Checkpoint checkpoint(boolean fresh) {
        Engine e = open();
        Checkpoint latest = e.latestCheckpoint();
        return fresh || latest == null ? e.checkpoint() : latest;
    }

    @Override
    public DeltaChain deltaChain() {
        return open().deltaChain();
    }

    private Engine open() {
        Engine e = engine.current();
        if (e == null) {
            throw new NodeUnavailableException("node " + nodeId.getAsLong()
                    + " has no open engine (paused for a checkpoint install, or closed)");
        }
        return e;
    }
}
