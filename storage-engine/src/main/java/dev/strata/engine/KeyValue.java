package dev.strata.engine;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A key and its value as returned by a scan. The arrays belong to the caller.
 *
 * @param key   the user key, never null
 * @param value the value, never null (deleted keys are not returned)
 */
public record KeyValue(byte[] key, byte[] value) {
    @Override
    public boolean equals(Object o) {
        return o instanceof KeyValue other && Arrays.equals(key, other.key) && Arrays.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "KeyValue[" + HexFormat.of().formatHex(key) + " -> " + value.length + " bytes]";
    }
}
