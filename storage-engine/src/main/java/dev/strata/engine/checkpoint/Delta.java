package dev.strata.engine.checkpoint;

import dev.strata.engine.version.DeltaContents;

import java.util.List;

/**
 * The files one flush (or one ingest) added, which hold exactly the writes with sequences in
 * {@code (fromExclusive, toInclusive]} that were still visible in that memtable: an interval of
 * the incremental chain. A node at sequence {@code fromExclusive} that ingests these files as L0
 * tables has every write up to {@code toInclusive}. Immutable; the engine's
 * {@link dev.strata.engine.DeltaChain} hands them out, and {@link #encode()} / {@link #decode}
 * carry one to another node.
 */
public interface Delta {
    long fromExclusive();

    long toInclusive();

    /** The applied marker durable with the flush (the server's Raft term and index), or null. */
    byte[] appliedMarker();

    /** Its files with their content ids, tables first. */
    List<CheckpointFile> files();

    /** Bytes of all its files. */
    default long totalBytes() {
        return files().stream().mapToLong(f -> f.content().size()).sum();
    }

    /** The record the chain's log stores and a checkpoint transfer ships. */
    byte[] encode();

    /** @throws dev.strata.engine.MalformedDataException when the bytes are not a delta */
    static Delta decode(byte[] bytes) {
        return DeltaContents.decode(bytes);
    }
}
