package dev.strata.engine.version;

import dev.strata.engine.vlog.ValueLogFileMetadata;

/**
 * A value-log file as one version sees it: what it holds and how much of that is garbage
 * (records no entry of the version points to).
 */
public record ValueLogFile(ValueLogFileMetadata metadata, long garbageBytes) {
    /** Garbage over record bytes, 0 to 1. */
    public double garbageRatio() {
        return metadata.recordBytes() == 0 ? 1 : (double) garbageBytes / metadata.recordBytes();
    }

    /** Record bytes still pointed to. */
    public long liveBytes() {
        return metadata.recordBytes() - garbageBytes;
    }

    ValueLogFile plusGarbage(long bytes) {
        return new ValueLogFile(metadata, garbageBytes + bytes);
    }
}
