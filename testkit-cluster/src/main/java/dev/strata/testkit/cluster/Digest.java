package dev.strata.testkit.cluster;

import dev.strata.proto.v1.KVGrpc;
import io.grpc.Channel;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * A node's contents summarized: SHA-256 over every key, value and revision of a full scan, and
 * the number of keys. Nodes that applied the same log have the same digest.
 */
public record Digest(String sha256, long keys) {

    /** Scans everything the node behind {@code channel} holds ({@link LocalScan}). */
    static Digest read(Channel channel) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channel);
        long[] count = {0};
        LocalScan.forEach(() -> kv.withDeadlineAfter(30, TimeUnit.SECONDS), e -> {
            sha.update(ByteBuffer.allocate(4).putInt(e.getKey().size()).array());
            sha.update(e.getKey().asReadOnlyByteBuffer());
            sha.update(ByteBuffer.allocate(4).putInt(e.getValue().size()).array());
            sha.update(e.getValue().asReadOnlyByteBuffer());
            sha.update(ByteBuffer.allocate(24).putLong(e.getCreateRevision()).putLong(e.getModRevision())
                    .putLong(e.getVersion()).array());
            count[0]++;
        });
        return new Digest(HexFormat.of().formatHex(sha.digest()), count[0]);
    }
}
