package dev.strata.server.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses configuration values: numbers, ports, byte sizes ("16MiB") and durations ("10s"), with messages that name the key. */
final class Values {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([KMGT]?i?B?)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)", Pattern.CASE_INSENSITIVE);

    private Values() {}

    static long positiveLong(String what, String value) {
        long v = longValue(what, value);
        if (v <= 0) {
            throw new IllegalArgumentException(what + " must be a positive integer, was \"" + value + "\"");
        }
        return v;
    }

    static long longValue(String what, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be an integer, was \"" + value + "\"", e);
        }
    }

    static int intValue(String what, String value, int min, int max) {
        long v = longValue(what, value);
        if (v < min || v > max) {
            throw new IllegalArgumentException(what + " must be in [" + min + ", " + max + "], was " + v);
        }
        return (int) v;
    }

    static double fraction(String what, String value, double min, double max) {
        double v;
        try {
            v = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a number, was \"" + value + "\"", e);
        }
        if (!(v >= min && v <= max)) {
            throw new IllegalArgumentException(what + " must be in [" + min + ", " + max + "], was " + value.trim());
        }
        return v;
    }

    /** A TCP port; 0 asks the system for a free one (tests use it for the HTTP port). */
    static int port(String what, String value) {
        return intValue(what, value, 0, 65535);
    }

    static boolean bool(String what, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException(what + " must be true or false, was \"" + value + "\"");
        };
    }

    /** "1048576", "1MiB", "1M" and "1MB" are all 2^20 bytes: sizes here are binary, as in the engine. */
    static long bytes(String what, String value) {
        Matcher m = SIZE.matcher(value.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(what + " must be a size such as 65536, 64KiB or 16MiB, was \"" + value + "\"");
        }
        String unit = m.group(2) == null || m.group(2).isEmpty() ? "B" : m.group(2).toUpperCase(Locale.ROOT);
        int shift = switch (unit.charAt(0)) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            case 'T' -> 40;
            default -> 0;
        };
        long n = Long.parseLong(m.group(1));
        if (n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(what + " is too large: \"" + value + "\"");
        }
        return n << shift;
    }

    static Duration duration(String what, String value) {
        Matcher m = DURATION.matcher(value.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(what + " must be a duration such as 500ms, 10s or 2m, was \"" + value + "\"");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
        if (d.isZero()) {
            throw new IllegalArgumentException(what + " must be longer than 0, was \"" + value + "\"");
        }
        return d;
    }
}
