package dev.strata.engine.vlog;

import java.nio.file.Path;

/**
 * Names a value-log file across every node of a cluster: the {@code origin} is a random id
 * minted when a database is created (and recorded in its manifest), {@code number} comes from
 * that database's file counter. Pointers carry both, so a value-log file copied to another
 * node (a checkpoint) keeps its name there and every pointer into it stays valid; no pointer is
 * ever rewritten on ingest.
 */
public record ValueLogId(long origin, long number) implements Comparable<ValueLogId> {
    private static final String SUFFIX = ".vlog";

    /** {@code <origin as 16 hex digits>-<number>.vlog}. */
    public String fileName() {
        return String.format("%016x-%06d%s", origin, number, SUFFIX);
    }

    public Path path(Path dir) {
        return dir.resolve(fileName());
    }

    /** The id a value-log file name stands for, or null when the name is not one. */
    public static ValueLogId parse(String name) {
        if (!name.endsWith(SUFFIX) || name.length() < 16 + 1 + 1 + SUFFIX.length() || name.charAt(16) != '-') {
            return null;
        }
        String digits = name.substring(17, name.length() - SUFFIX.length());
        if (digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        try {
            return new ValueLogId(Long.parseUnsignedLong(name.substring(0, 16), 16), Long.parseLong(digits));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public int compareTo(ValueLogId o) {
        int c = Long.compareUnsigned(origin, o.origin);
        return c != 0 ? c : Long.compare(number, o.number);
    }

    @Override
    public String toString() {
        return fileName();
    }
}
