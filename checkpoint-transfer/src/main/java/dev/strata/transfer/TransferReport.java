package dev.strata.transfer;

import dev.strata.proto.internal.v1.Plan;

import java.time.Duration;

/**
 * What one fetch cost: the plan it ended with, files received and reused, file bytes received
 * before and after chunk compression, the chunks rejected, the attempts and the time.
 */
public record TransferReport(Plan.Kind kind, long senderId, int filesReceived, int filesReused, long rawBytes,
                             long wireBytes, int corruptChunks, int attempts, Duration duration) {
    @Override
    public String toString() {
        return String.format("plan %s from node %d: %d files received, %d reused, %d bytes raw, %d on the wire, "
                        + "%d corrupt chunks re-fetched, %d attempts, %d ms", kind, senderId, filesReceived, filesReused,
                rawBytes, wireBytes, corruptChunks, attempts, duration.toMillis());
    }
}
