package dev.strata.engine.version;

import java.nio.file.Path;

/**
 * Names of the files in a data directory, as LevelDB's {@code filename}:
 * {@code 000012.sst}, {@code 000013.wal}, {@code MANIFEST-000014}, {@code CURRENT},
 * {@code LOCK}, and {@code 000015.tmp} for files being written before an atomic rename.
 * File numbers come from one counter, so a number names exactly one file.
 */
public final class FileNames {
    private FileNames() {}

    public static final String CURRENT = "CURRENT";
    public static final String LOCK = "LOCK";
    private static final String MANIFEST_PREFIX = "MANIFEST-";

    /** The kinds of file the engine creates. */
    public enum Kind { TABLE, WAL, MANIFEST, TEMP, CURRENT, LOCK }

    /** A file name parsed back into its kind and number (0 for CURRENT and LOCK). */
    public record Parsed(Kind kind, long number) {}

    public static Path table(Path dir, long number) {
        return dir.resolve(String.format("%06d.sst", number));
    }

    public static Path wal(Path dir, long number) {
        return dir.resolve(String.format("%06d.wal", number));
    }

    public static Path manifest(Path dir, long number) {
        return dir.resolve(String.format(MANIFEST_PREFIX + "%06d", number));
    }

    public static Path temp(Path dir, long number) {
        return dir.resolve(String.format("%06d.tmp", number));
    }

    /** The kind and number of a file name, or null for a name the engine does not own. */
    public static Parsed parse(String name) {
        if (name.equals(CURRENT)) {
            return new Parsed(Kind.CURRENT, 0);
        }
        if (name.equals(LOCK)) {
            return new Parsed(Kind.LOCK, 0);
        }
        if (name.startsWith(MANIFEST_PREFIX)) {
            Long n = number(name.substring(MANIFEST_PREFIX.length()));
            return n == null ? null : new Parsed(Kind.MANIFEST, n);
        }
        int dot = name.lastIndexOf('.');
        if (dot <= 0) {
            return null;
        }
        Long n = number(name.substring(0, dot));
        if (n == null) {
            return null;
        }
        return switch (name.substring(dot + 1)) {
            case "sst" -> new Parsed(Kind.TABLE, n);
            case "wal" -> new Parsed(Kind.WAL, n);
            case "tmp" -> new Parsed(Kind.TEMP, n);
            default -> null;
        };
    }

    private static Long number(String digits) {
        if (digits.isEmpty() || digits.length() > 18) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return null;
            }
        }
        return Long.parseLong(digits);
    }
}
