package dev.strata.engine.version;

import dev.strata.engine.key.InternalKey;
import dev.strata.engine.vlog.ValueLogId;

import java.util.List;

/**
 * What the manifest records about one table file. Immutable; reference counts and open
 * readers live elsewhere (versions and the table cache).
 *
 * @param number           file number (its name is {@code number.sst})
 * @param fileSize         bytes on disk
 * @param smallest         first encoded internal key
 * @param largest          last encoded internal key
 * @param smallestSequence lowest sequence number in the file
 * @param largestSequence  highest sequence number in the file
 * @param entries          entries, tombstones included
 * @param rawDataBytes     data block bytes before compression, for the compression ratio
 * @param valueLogs        value-log files the table's pointers point into (sorted, distinct):
 *                         what a targeted garbage-collection compaction looks up
 * @param fileCrc          CRC32C of the whole file; with its size the table's content id, by
 *                         which nodes tell which tables they share (file numbers are local)
 */
public record FileMetadata(long number, long fileSize, byte[] smallest, byte[] largest, long smallestSequence,
                           long largestSequence, long entries, long rawDataBytes, List<ValueLogId> valueLogs,
                           int fileCrc) {

    public FileMetadata {
        valueLogs = List.copyOf(valueLogs);
    }

    public byte[] smallestUserKey() {
        return InternalKey.userKeyOf(smallest);
    }

    public byte[] largestUserKey() {
        return InternalKey.userKeyOf(largest);
    }

    /** True when the file's user-key range intersects {@code [from, to]}; null bounds are open. */
    public boolean overlaps(byte[] fromUserKey, byte[] toUserKey) {
        if (toUserKey != null && InternalKey.compareUserKey(smallest, toUserKey) > 0) {
            return false;
        }
        return fromUserKey == null || InternalKey.compareUserKey(largest, fromUserKey) >= 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileMetadata f && f.number == number && f.fileSize == fileSize
                && java.util.Arrays.equals(f.smallest, smallest) && java.util.Arrays.equals(f.largest, largest)
                && f.smallestSequence == smallestSequence && f.largestSequence == largestSequence
                && f.entries == entries && f.rawDataBytes == rawDataBytes && f.valueLogs.equals(valueLogs)
                && f.fileCrc == fileCrc;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(number);
    }

    @Override
    public String toString() {
        return "#" + number + "[" + fileSize + "B " + InternalKey.describe(smallest) + " .. "
                + InternalKey.describe(largest) + "]";
    }
}
