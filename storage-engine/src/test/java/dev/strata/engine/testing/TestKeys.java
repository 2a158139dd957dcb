package dev.strata.engine.testing;

import java.nio.charset.StandardCharsets;

/** Small helpers for readable keys and values in tests. */
public final class TestKeys {
    private TestKeys() {}

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** A fixed-width key so numeric order is byte order. */
    public static byte[] key(int i) {
        return bytes(String.format("key%08d", i));
    }
}
