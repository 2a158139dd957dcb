package dev.strata.cli.bench;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The benchmark's keys: the prefix, then the key number in zero-padded decimal of
 * {@value #DIGITS} digits (as db_bench writes them), so byte order is number order and a scan
 * from key n meets n, n + 1, ... Keys a read is meant to miss are a key of the space with
 * {@value #ABSENT_SUFFIX} appended, which the benchmark never writes. Immutable.
 */
final class KeySpace {
    static final int DIGITS = 16;
    /** Key numbers are below this: the largest count whose numbers fit in {@value #DIGITS} digits. */
    static final long MAX_KEYS = 10_000_000_000_000_000L;

    private static final String ABSENT_SUFFIX = "-absent";
    /** The byte after '9': every key of the space sorts below the prefix followed by it. */
    private static final byte AFTER_DIGITS = '9' + 1;

    private final byte[] prefix;

    KeySpace(String prefix) {
        this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
    }

    /** The key of number {@code n}; a fresh array. */
    byte[] key(long n) {
        if (n < 0 || n >= MAX_KEYS) {
            throw new IllegalArgumentException("key number must be in [0, " + MAX_KEYS + "), was " + n);
        }
        byte[] key = Arrays.copyOf(prefix, prefix.length + DIGITS);
        for (int i = key.length - 1; i >= prefix.length; i--) {
            key[i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        return key;
    }

    /** A key never written, next to the key of {@code n}. */
    byte[] absent(long n) {
        byte[] key = key(n);
        byte[] suffix = ABSENT_SUFFIX.getBytes(StandardCharsets.US_ASCII);
        byte[] absent = Arrays.copyOf(key, key.length + suffix.length);
        System.arraycopy(suffix, 0, absent, key.length, suffix.length);
        return absent;
    }

    /** An exclusive range end after every key of the space, so scans stay inside it. */
    byte[] end() {
        byte[] end = Arrays.copyOf(prefix, prefix.length + 1);
        end[prefix.length] = AFTER_DIGITS;
        return end;
    }
}
