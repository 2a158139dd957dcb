package dev.strata.server.raft;

import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.server.storage.FileInfo;

import java.util.List;
import java.util.function.Supplier;

/**
 * Ratis' view of the state machine's snapshots. The "snapshot" is the engine's own files: the
 * (term, index) the supplier gives (see {@link AppliedEngine#snapshotTermIndex()}). Nothing is
 * written here and there is nothing old to clean up; the engine's checkpoints, which the
 * checkpoint service ships, are kept by the engine itself.
 */
final class EngineSnapshotStorage implements StateMachineStorage {
    private final Supplier<TermIndex> durable;

    EngineSnapshotStorage(Supplier<TermIndex> durable) {
        this.durable = durable;
    }

    @Override
    public void init(RaftStorage raftStorage) {
        // The engine has its own directory; the Raft storage directory holds only the log.
    }

    /** The durable marker as a snapshot with no files of its own, or null before the first flush. */
    @Override
    public SnapshotInfo getLatestSnapshot() {
        TermIndex ti = durable.get();
        return ti == null ? null : new DurableMarker(ti);
    }

    @Override
    public void format() {
        // Formatting the Raft storage leaves the engine alone: a fresh engine directory is empty anyway.
    }

    @Override
    public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) {
        // One live state, no snapshot files: nothing to delete.
    }

    /** A snapshot that is the engine's files as of {@code termIndex}; it lists no files of its own. */
    private record DurableMarker(TermIndex termIndex) implements SnapshotInfo {
        @Override
        public TermIndex getTermIndex() {
            return termIndex;
        }

        @Override
        public List<FileInfo> getFiles() {
            return List.of();
        }
    }
}
