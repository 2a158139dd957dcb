package dev.strata.it.workload;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes a value's name stands for. Histories name every value by a short unique string; a
 * large value (stored in the value log) is its name followed by filler derived from the name, so
 * a read can check every byte and still record only the name. Bytes that are not exactly what
 * their name says are recorded as a corrupt value, which no write produced and every checker
 * rejects.
 */
public final class Payloads {
    private static final String LARGE = "L:";

    private Payloads() {}

    /** The bytes of a small value: its name. */
    public static byte[] small(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    /** A name for a large value of {@code size} bytes written as {@code id}. */
    public static String largeName(String id, int size) {
        return LARGE + id + ":" + size;
    }

    /** The bytes a name stands for: the name itself, or for a large value the name and its filler. */
    public static byte[] bytes(String name) {
        if (!name.startsWith(LARGE)) {
            return small(name);
        }
        int size = Integer.parseInt(name.substring(name.lastIndexOf(':') + 1));
        byte[] head = small(name);
        byte[] out = new byte[size];
        System.arraycopy(head, 0, out, 0, head.length);
        for (int i = head.length; i < size; i++) {
            out[i] = (byte) ('a' + (i * 31 + head.length) % 26);
        }
        return out;
    }

    /** The name of the value {@code read}, or a {@code CORRUPT:...} description when its bytes do not match one. */
    public static String name(byte[] read) {
        String text = new String(read, 0, Math.min(read.length, 64), StandardCharsets.UTF_8);
        if (!text.startsWith(LARGE)) {
            String all = new String(read, StandardCharsets.UTF_8);
            return Arrays.equals(small(all), read) ? all : corrupt(read);
        }
        int end = text.indexOf(':', LARGE.length());
        if (end < 0) {
            return corrupt(read);
        }
        int digits = end + 1;
        while (digits < text.length() && Character.isDigit(text.charAt(digits))) {
            digits++;
        }
        String name = text.substring(0, digits);
        try {
            return Arrays.equals(bytes(name), read) ? name : corrupt(read);
        } catch (NumberFormatException e) {
            return corrupt(read);
        }
    }

    private static String corrupt(byte[] read) {
        return "CORRUPT:" + read.length + "B:" + new String(read, 0, Math.min(read.length, 24), StandardCharsets.ISO_8859_1);
    }
}
