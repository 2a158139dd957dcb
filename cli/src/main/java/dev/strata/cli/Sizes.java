package dev.strata.cli;

/** Byte counts for people: 512 B, 1.5 KiB, 3.2 GiB. */
final class Sizes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    private Sizes() {}

    static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double v = bytes;
        int unit = 0;
        while (v >= 1024 && unit < UNITS.length - 1) {
            v /= 1024;
            unit++;
        }
        return String.format("%.1f %s", v, UNITS[unit]);
    }
}
