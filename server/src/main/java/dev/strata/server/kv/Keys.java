package dev.strata.server.kv;

import com.google.protobuf.ByteString;

import java.util.HexFormat;

/** Renders keys in error messages and logs: printable ASCII as is, anything else as hex; long keys cut. */
public final class Keys {
    private static final int SHOWN = 64;

    private Keys() {}

    public static String describe(ByteString key) {
        return describe(key.toByteArray());
    }

    public static String describe(byte[] key) {
        int n = Math.min(key.length, SHOWN);
        boolean printable = true;
        for (int i = 0; i < n && printable; i++) {
            printable = key[i] >= 0x20 && key[i] < 0x7f;
        }
        String shown = printable ? "\"" + new String(key, 0, n, java.nio.charset.StandardCharsets.US_ASCII) + "\""
                : "0x" + HexFormat.of().formatHex(key, 0, n);
        return key.length > SHOWN ? shown + "... (" + key.length + " bytes)" : shown;
    }
}
