package dev.strata.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bytes another process has written to storage, from Linux's {@code /proc/PID/io}:
 * {@code write_bytes}, counted when the process makes a clean page of a file dirty (or writes
 * directly). Every file counts, logs, tables and files deleted before write-back, and a page
 * written again after an fsync counts again, so a log fsynced after every append counts far more
 * than the disk writes; {@link BlockDevice} gives what the disk saw. It attributes writes to a Go
 * server and a Java one by the same yardstick.
 */
final class ProcIo {
    private static final String WRITE_BYTES = "write_bytes:";

    private ProcIo() {}

    /**
     * {@code write_bytes} of the text of one {@code /proc/PID/io}.
     *
     * @throws IllegalArgumentException when the text has no such line
     */
    static long writeBytes(String io) {
        for (String line : io.split("\n")) {
            if (line.startsWith(WRITE_BYTES)) {
                return Long.parseLong(line.substring(WRITE_BYTES.length()).trim());
            }
        }
        throw new IllegalArgumentException("no " + WRITE_BYTES + " line in /proc/PID/io: " + io);
    }

    /**
     * The bytes process {@code pid} has written to storage so far.
     *
     * @throws IOException when there is no such process, no /proc, or it is not ours to read
     */
    static long writeBytes(long pid) throws IOException {
        return writeBytes(Files.readString(Path.of("/proc", Long.toString(pid), "io")));
    }
}
