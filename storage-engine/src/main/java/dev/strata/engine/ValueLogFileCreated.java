package dev.strata.engine;

/**
 * A value-log file a background job finished, for {@link EngineEventListener#onValueLogFileCreated}.
 *
 * @param fileName       the file's name in the engine's value-log directory
 * @param fileSize       its size in bytes
 * @param entries        the values it holds
 * @param job            the kind of job that wrote it
 * @param relocatedBytes bytes of its records that garbage collection moved here from files
 *                       being emptied (0 for a flush and for a compaction that collects nothing)
 */
public record ValueLogFileCreated(String fileName, long fileSize, long entries, Job job, long relocatedBytes) {
    /** The kinds of job that write value logs. */
    public enum Job { FLUSH, COMPACTION }
}
