package dev.strata.server.kv;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.strata.engine.EngineException;
import dev.strata.proto.v1.KeyValue;

import java.nio.ByteBuffer;

/**
 * What the state machine stores in the engine for a user key: etcd's revisions beside the
 * value, so the engine itself stays generic. Layout (big-endian):
 * <pre>
 *   [format: 1 byte = 1][create_revision: 8][mod_revision: 8][version: 8][value: rest]
 * </pre>
 * The format byte lets a later layout coexist with this one in files written before it.
 *
 * @param createRevision revision of the write that created the key (after its last delete)
 * @param modRevision    revision of the write that last changed it
 * @param version        changes since creation, 1 after the first put
 * @param value          the user value
 */
public record StoredValue(long createRevision, long modRevision, long version, ByteString value) {
    static final byte FORMAT = 1;
    static final int HEADER_SIZE = 1 + 3 * Long.BYTES;

    /** The value a put writes: a new key starts at version 1, an existing one keeps its creation. */
    static StoredValue afterPut(RevisionCache.Revisions previous, long revision, ByteString value) {
        return previous == null ? new StoredValue(revision, revision, 1, value)
                : new StoredValue(previous.createRevision(), revision, previous.version() + 1, value);
    }

    /** The revisions without the value. */
    RevisionCache.Revisions revisions() {
        return new RevisionCache.Revisions(createRevision, modRevision, version);
    }

    /**
     * The revisions of what {@link #encode} wrote, without copying the value.
     *
     * @throws EngineException with code CORRUPTION when the bytes are not a stored value
     */
    static RevisionCache.Revisions decodeRevisions(byte[] userKey, byte[] stored) {
        checkFormat(userKey, stored);
        ByteBuffer b = ByteBuffer.wrap(stored, 1, HEADER_SIZE - 1);
        return new RevisionCache.Revisions(b.getLong(), b.getLong(), b.getLong());
    }

    byte[] encode() {
        byte[] out = new byte[HEADER_SIZE + value.size()];
        ByteBuffer.wrap(out).put(FORMAT).putLong(createRevision).putLong(modRevision).putLong(version);
        value.copyTo(out, HEADER_SIZE);
        return out;
    }

    /**
     * Decodes what {@link #encode} wrote. The value shares {@code stored}, which the caller
     * must not change afterwards (engine reads return fresh arrays).
     *
     * @throws EngineException with code CORRUPTION when the bytes are not a stored value
     */
    static StoredValue decode(byte[] userKey, byte[] stored) {
        checkFormat(userKey, stored);
        ByteBuffer b = ByteBuffer.wrap(stored, 1, HEADER_SIZE - 1);
        return new StoredValue(b.getLong(), b.getLong(), b.getLong(),
                UnsafeByteOperations.unsafeWrap(stored, HEADER_SIZE, stored.length - HEADER_SIZE));
    }

    private static void checkFormat(byte[] userKey, byte[] stored) {
        if (stored.length < HEADER_SIZE || stored[0] != FORMAT) {
            throw new EngineException(EngineException.Code.CORRUPTION, "stored value of key " + Keys.describe(userKey)
                    + " is not in format " + FORMAT + " (" + stored.length + " bytes, first byte "
                    + (stored.length == 0 ? "none" : stored[0]) + ")");
        }
    }

    KeyValue toKeyValue(byte[] userKey, boolean keysOnly) {
        KeyValue.Builder kv = KeyValue.newBuilder()
                .setKey(UnsafeByteOperations.unsafeWrap(userKey))
                .setCreateRevision(createRevision)
                .setModRevision(modRevision)
                .setVersion(version);
        if (!keysOnly) {
            kv.setValue(value);
        }
        return kv.build();
    }
}
