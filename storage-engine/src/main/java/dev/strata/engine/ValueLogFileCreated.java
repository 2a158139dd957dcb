package dev.strata.engine;

import dev.strata.engine.vlog.ValueLogFileMetadata;

/**
 * A value-log file a background job finished, for {@link EngineEventListener#onValueLogFileCreated}.
 *
 * @param file           the file as the manifest will record it
 * @param job            the kind of job that wrote it
 * @param relocatedBytes bytes of its records that garbage collection moved here from files
 *                       being emptied (0 for a flush and for a compaction that collects nothing)
 */
public record ValueLogFileCreated(ValueLogFileMetadata file, Job job, long relocatedBytes) {
    /** The kinds of job that write value logs. */
    public enum Job { FLUSH, COMPACTION }
}
