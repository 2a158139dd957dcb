package dev.strata.server.kv;

import com.google.protobuf.ByteString;

import java.util.Arrays;

/**
 * A selection of user keys: {@code [from, to)}, where a null {@code to} is unbounded. Built from
 * a request's {@code key}, {@code range_end} and {@code prefix} with etcd's rules (see
 * {@code kv.proto}); {@link #select} rejects the combinations that make no sense.
 *
 * @param from   first key, inclusive (empty = the first key of the store)
 * @param to     end, exclusive; null = no end
 * @param single true when the request named one key (then {@code to} is {@code from + 0x00})
 */
public record KeyRange(byte[] from, byte[] to, boolean single) {

    /**
     * The keys a request selects.
     *
     * @throws InvalidRequestException for an empty single key, a key over 64 KiB, prefix
     *         together with range_end, or a range_end that is not after key
     */
    public static KeyRange select(ByteString key, ByteString rangeEnd, boolean prefix) {
        checkKeySize("key", key);
        checkKeySize("range_end", rangeEnd);
        byte[] k = key.toByteArray();
        if (prefix) {
            if (!rangeEnd.isEmpty()) {
                throw new InvalidRequestException("prefix and range_end cannot both be set");
            }
            return new KeyRange(k, prefixEnd(k), false);
        }
        if (rangeEnd.isEmpty()) {
            if (k.length == 0) {
                throw new InvalidRequestException("key must not be empty");
            }
            return new KeyRange(k, Arrays.copyOf(k, k.length + 1), true);
        }
        if (rangeEnd.size() == 1 && rangeEnd.byteAt(0) == 0) {
            return new KeyRange(k, null, false);
        }
        byte[] end = rangeEnd.toByteArray();
        if (Arrays.compareUnsigned(k, end) >= 0) {
            throw new InvalidRequestException("range_end " + Keys.describe(end) + " must be greater than key "
                    + Keys.describe(k) + " (or a single 0x00 byte for no end)");
        }
        return new KeyRange(k, end, false);
    }

    /** Checks a key that must name exactly one key: non-empty and at most 64 KiB. */
    public static void checkSingleKey(String field, ByteString key) {
        if (key.isEmpty()) {
            throw new InvalidRequestException(field + " must not be empty");
        }
        checkKeySize(field, key);
    }

    private static void checkKeySize(String field, ByteString key) {
        if (key.size() > Limits.MAX_KEY_SIZE) {
            throw new InvalidRequestException(field + " is " + key.size() + " bytes, the limit is "
                    + Limits.MAX_KEY_SIZE + " bytes (64 KiB)");
        }
    }

    /** The first key after every key starting with {@code prefix}, or null when there is none (empty or all 0xff). */
    static byte[] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }

    /** Whether {@code key} falls in this range. */
    public boolean contains(byte[] key) {
        return Arrays.compareUnsigned(key, from) >= 0 && (to == null || Arrays.compareUnsigned(key, to) < 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange r && single == r.single && Arrays.equals(from, r.from) && Arrays.equals(to, r.to);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(from) + Arrays.hashCode(to);
    }

    @Override
    public String toString() {
        return single ? Keys.describe(from) : "[" + Keys.describe(from) + ", " + (to == null ? "end" : Keys.describe(to)) + ")";
    }
}
