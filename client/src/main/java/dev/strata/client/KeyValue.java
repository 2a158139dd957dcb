package dev.strata.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A key and its value as a read saw them, with the key's history: the revision that created it
 * (since its last delete), the revision that last changed it, and how many changes that was.
 * Revisions are Raft log indexes, shared by every node.
 *
 * @param value empty for keys-only reads
 */
public record KeyValue(byte[] key, byte[] value, long createRevision, long modRevision, long version) {
    public KeyValue {
        key = key.clone();
        value = value.clone();
    }

    @Override
    public byte[] key() {
        return key.clone();
    }

    @Override
    public byte[] value() {
        return value.clone();
    }

    /** The key decoded as UTF-8. */
    public String keyUtf8() {
        return new String(key, StandardCharsets.UTF_8);
    }

    /** The value decoded as UTF-8. */
    public String valueUtf8() {
        return new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyValue kv && Arrays.equals(key, kv.key) && Arrays.equals(value, kv.value)
                && createRevision == kv.createRevision && modRevision == kv.modRevision && version == kv.version;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Long.hashCode(modRevision);
    }

    @Override
    public String toString() {
        return "KeyValue[" + keyUtf8() + " = " + value.length + " bytes, mod " + modRevision + ", version " + version + "]";
    }
}
