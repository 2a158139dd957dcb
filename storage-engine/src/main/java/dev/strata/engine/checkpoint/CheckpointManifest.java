package dev.strata.engine.checkpoint;

import dev.strata.engine.version.CheckpointContents;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What a checkpoint holds: every table (with its level) and value log (with its garbage) of one
 * version, the sequence everything up to which it contains, and the applied marker durable with
 * it. Stored in a checkpoint's directory as the file {@value #FILE_NAME} (format in
 * {@code storage-engine/docs/format/checkpoint.md}); {@link #encode()} / {@link #decode} carry
 * one to another node.
 */
public interface CheckpointManifest {
    String FILE_NAME = "CHECKPOINT";

    /** Every write up to this sequence is in the checkpoint's files, none after. */
    long sequence();

    /** The applied marker durable with those writes (the server's Raft term and index), or null. */
    byte[] appliedMarker();

    /** The id of the database that wrote it. */
    long origin();

    /** Every file with its content id, tables first. */
    List<CheckpointFile> files();

    /** Bytes of all its files. */
    default long totalBytes() {
        return files().stream().mapToLong(f -> f.content().size()).sum();
    }

    byte[] encode();

    /** Writes {@code dir/CHECKPOINT} and fsyncs it. */
    void writeTo(Path dir) throws IOException;

    /** @throws dev.strata.engine.MalformedDataException when the bytes are not a checkpoint manifest */
    static CheckpointManifest decode(byte[] bytes) {
        return CheckpointContents.decode(bytes);
    }

    /**
     * Reads {@code dir/CHECKPOINT}.
     *
     * @throws dev.strata.engine.CorruptionException when it is damaged or incomplete
     */
    static CheckpointManifest readFrom(Path dir) throws IOException {
        return CheckpointContents.readFrom(dir);
    }
}
