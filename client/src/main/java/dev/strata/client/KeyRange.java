package dev.strata.client;

import java.nio.charset.StandardCharsets;

/**
 * Which keys an operation selects, as etcd selects them: one key, the keys in
 * {@code [from, to)}, every key from one on, or every key with a prefix.
 */
public final class KeyRange {
    private static final byte[] NONE = new byte[0];
    /** A range end of one zero byte means "every key at or after the start", as in etcd. */
    private static final byte[] TO_THE_END = {0};

    final byte[] key;
    final byte[] end;
    final boolean prefix;

    private KeyRange(byte[] key, byte[] end, boolean prefix) {
        this.key = key.clone();
        this.end = end.clone();
        this.prefix = prefix;
    }

    /** Exactly {@code key}. */
    public static KeyRange key(byte[] key) {
        return new KeyRange(key, NONE, false);
    }

    /** The keys in {@code [from, to)} in unsigned byte order. */
    public static KeyRange between(byte[] from, byte[] to) {
        if (to.length == 0) {
            throw new IllegalArgumentException("an empty range end selects one key; use KeyRange.key or KeyRange.from");
        }
        return new KeyRange(from, to, false);
    }

    /** Every key at or after {@code from}. */
    public static KeyRange from(byte[] from) {
        return new KeyRange(from, TO_THE_END, false);
    }

    /** Every key that starts with {@code prefix}; the empty prefix selects every key. */
    public static KeyRange prefix(byte[] prefix) {
        return new KeyRange(prefix, NONE, true);
    }

    public static KeyRange key(String key) {
        return key(utf8(key));
    }

    public static KeyRange between(String from, String to) {
        return between(utf8(from), utf8(to));
    }

    public static KeyRange from(String from) {
        return from(utf8(from));
    }

    public static KeyRange prefix(String prefix) {
        return prefix(utf8(prefix));
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        String k = new String(key, StandardCharsets.UTF_8);
        if (prefix) {
            return "prefix " + k;
        }
        return end.length == 0 ? "key " + k : "[" + k + ", " + new String(end, StandardCharsets.UTF_8) + ")";
    }
}
