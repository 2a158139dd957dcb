package dev.strata.server.raft;

import dev.strata.engine.EngineException;
import org.apache.ratis.server.protocol.TermIndex;

import java.nio.ByteBuffer;

/**
 * The engine's opaque applied marker as the state machine uses it: the (term, index) of the
 * last log entry whose writes are in the batch that carries it. 16 bytes, big-endian:
 * {@code [term: 8][index: 8]}.
 */
public final class AppliedMarker {
    static final int SIZE = 16;

    private AppliedMarker() {}

    public static byte[] encode(TermIndex ti) {
        return ByteBuffer.allocate(SIZE).putLong(ti.getTerm()).putLong(ti.getIndex()).array();
    }

    /**
     * Decodes a marker; null (no marker flushed yet) stays null.
     *
     * @throws EngineException with code CORRUPTION when the marker is not 16 bytes
     */
    public static TermIndex decode(byte[] marker) {
        if (marker == null) {
            return null;
        }
        if (marker.length != SIZE) {
            throw new EngineException(EngineException.Code.CORRUPTION,
                    "applied marker is " + marker.length + " bytes, expected " + SIZE + " (term, index)");
        }
        ByteBuffer b = ByteBuffer.wrap(marker);
        return TermIndex.valueOf(b.getLong(), b.getLong());
    }
}
