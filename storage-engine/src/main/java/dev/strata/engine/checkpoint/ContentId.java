package dev.strata.engine.checkpoint;

/**
 * What a file holds, independent of its name: its size and the CRC32C of all its bytes. Table
 * numbers are local to one engine, so nodes compare content ids to tell which files they share.
 */
public record ContentId(long size, int crc) {
    @Override
    public String toString() {
        return size + ":" + Integer.toHexString(crc);
    }
}
