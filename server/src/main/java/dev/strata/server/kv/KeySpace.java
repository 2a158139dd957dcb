package dev.strata.server.kv;

import com.google.protobuf.ByteString;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How the state machine lays out its data in the engine's single key space. Every engine key
 * starts with a one-byte namespace, so user keys and the server's own records (the member
 * directory) can never collide, whatever bytes a user chooses:
 * <pre>
 *   'k' user key      -> {@link StoredValue} (revisions + user value)
 *   'm' record name   -> server metadata (e.g. "member/3" -> MemberRecord)
 * </pre>
 * A user range {@code [a, b)} is the engine range {@code ['k'a, 'k'b)}; an open end is {@code 'l'}.
 */
public final class KeySpace {
    static final byte DATA = 'k';
    static final byte META = 'm';
    private static final byte[] DATA_END = {DATA + 1};
    private static final String MEMBER_PREFIX = "member/";

    private KeySpace() {}

    /** The engine key of a user key. */
    public static byte[] data(byte[] userKey) {
        byte[] k = new byte[userKey.length + 1];
        k[0] = DATA;
        System.arraycopy(userKey, 0, k, 1, userKey.length);
        return k;
    }

    public static byte[] data(ByteString userKey) {
        byte[] k = new byte[userKey.size() + 1];
        k[0] = DATA;
        userKey.copyTo(k, 1);
        return k;
    }

    /** The user key of an engine key in the data namespace. */
    public static byte[] user(byte[] dataKey) {
        return Arrays.copyOfRange(dataKey, 1, dataKey.length);
    }

    /** The engine bound of a user range end; null (no end) becomes the end of the data namespace. */
    static byte[] dataEnd(byte[] userEndExclusive) {
        return userEndExclusive == null ? DATA_END.clone() : data(userEndExclusive);
    }

    /** The engine key of a metadata record. */
    public static byte[] meta(String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] k = new byte[n.length + 1];
        k[0] = META;
        System.arraycopy(n, 0, k, 1, n.length);
        return k;
    }

    /** The engine key of member {@code id}'s record in the member directory. */
    public static byte[] member(long id) {
        return meta(MEMBER_PREFIX + id);
    }

    /** The engine range {@code [from, to)} of the member directory's records. */
    public static byte[][] members() {
        return metaPrefix(MEMBER_PREFIX);
    }

    /** The engine range {@code [from, to)} of every metadata record whose name starts with {@code prefix}. */
    public static byte[][] metaPrefix(String prefix) {
        byte[] from = meta(prefix);
        return new byte[][] {from, KeyRange.prefixEnd(from)};
    }
}
