package dev.strata.server.raft;

import dev.strata.engine.EngineException;
import org.apache.ratis.server.protocol.TermIndex;

import java.nio.ByteBuffer;

/**
 * The engine's opaque applied marker as the state machine uses it: the (term, index) of the
 * last log entry whose writes are in the batch that carries it, and the KV revision after that
 * entry. 24 bytes, big-endian: {@code [term: 8][index: 8][revision: 8]}.
 *
 * <p>Markers written before a log entry could hold many writes are 16 bytes, without the
 * revision: each entry was then one revision, so the revision is the index.
 */
public final class AppliedMarker {
    static final int SIZE = 24;
    private static final int SIZE_WITHOUT_REVISION = 16;

    private AppliedMarker() {}

    public static byte[] encode(TermIndex ti, long revision) {
        return ByteBuffer.allocate(SIZE).putLong(ti.getTerm()).putLong(ti.getIndex()).putLong(revision).array();
    }

    /**
     * The (term, index) of a marker; null (no marker flushed yet) stays null.
     *
     * @throws EngineException with code CORRUPTION when the marker has neither known size
     */
    public static TermIndex decode(byte[] marker) {
        if (marker == null) {
            return null;
        }
        ByteBuffer b = checked(marker);
        return TermIndex.valueOf(b.getLong(), b.getLong());
    }

    /**
     * The revision of a marker, or 0 for none (a new node).
     *
     * @throws EngineException with code CORRUPTION when the marker has neither known size
     */
    public static long revision(byte[] marker) {
        if (marker == null) {
            return 0;
        }
        ByteBuffer b = checked(marker);
        long index = b.getLong(8);
        return marker.length == SIZE ? b.getLong(16) : index;
    }

    private static ByteBuffer checked(byte[] marker) {
        if (marker.length != SIZE && marker.length != SIZE_WITHOUT_REVISION) {
            throw new EngineException(EngineException.Code.CORRUPTION, "applied marker is " + marker.length
                    + " bytes, expected " + SIZE + " (term, index, revision) or " + SIZE_WITHOUT_REVISION + " (term, index)");
        }
        return ByteBuffer.wrap(marker);
    }
}
