package dev.strata.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The block device a directory lives on, and the bytes written to it so far, from Linux's
 * {@code /sys/dev/block/MAJOR:MINOR/stat} (field 7: sectors written, always of 512 bytes).
 *
 * <p>What the device wrote is what the disk saw: file data after the page cache merged repeated
 * writes of a page, the file system's journal, and nothing of a file deleted before it was
 * written back. It counts every process writing to the device, so a figure is one system's only
 * while the other system sharing the device is idle.
 */
final class BlockDevice {
    private static final long SECTOR_BYTES = 512;
    private final Path stat;

    private BlockDevice(Path stat) {
        this.stat = stat;
    }

    /** The device {@code dir} is on; empty when it has none in /sys (tmpfs, overlay, not Linux). */
    static Optional<BlockDevice> of(Path dir) {
        try {
            long dev = (Long) Files.getAttribute(dir, "unix:dev");
            Path stat = Path.of("/sys/dev/block", major(dev) + ":" + minor(dev), "stat");
            if (!Files.isReadable(stat)) {
                return Optional.empty();
            }
            BlockDevice device = new BlockDevice(stat);
            device.writtenBytes();
            return Optional.of(device);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return Optional.empty();
        }
    }

    /** The bytes written to the device since it came up. */
    long writtenBytes() throws IOException {
        return sectorsWritten(Files.readString(stat)) * SECTOR_BYTES;
    }

    /**
     * Field 7 of a block device's {@code stat} line: sectors written.
     *
     * @throws IllegalArgumentException when the line has fewer fields
     */
    static long sectorsWritten(String statLine) {
        String[] fields = statLine.trim().split("\\s+");
        if (fields.length < 7) {
            throw new IllegalArgumentException("not a block device stat line: " + statLine);
        }
        return Long.parseLong(fields[6]);
    }

    /** glibc's {@code major()} of an {@code st_dev}. */
    static long major(long dev) {
        return ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    }

    /** glibc's {@code minor()} of an {@code st_dev}. */
    static long minor(long dev) {
        return (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    }

    @Override
    public String toString() {
        return stat.getParent().toString();
    }
}
