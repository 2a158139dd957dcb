package dev.strata.engine.vlog;

/**
 * What the manifest records about one value-log file when it is added. Its garbage count
 * changes with later edits and lives in the version, not here.
 *
 * @param id          the file's cluster-wide name
 * @param fileSize    bytes on disk
 * @param entries     records
 * @param recordBytes bytes of all records (the file minus its header): when a file's garbage
 *                    reaches this, nothing in it is live any more
 * @param fileCrc     CRC32C of the whole file; with its size the file's content id, by which
 *                    nodes tell which files they already share
 * @param provisionalBytes bytes of records stored with an adaptive policy's faster codec while the
 *                    engine was behind, which garbage collection recompresses once it is calm
 *                    (see {@code CompressionPolicy#adaptive}); 0 in files written before this existed
 */
public record ValueLogFileMetadata(ValueLogId id, long fileSize, long entries, long recordBytes, int fileCrc,
                                   long provisionalBytes) {
    /** A file with no provisional records. */
    public ValueLogFileMetadata(ValueLogId id, long fileSize, long entries, long recordBytes, int fileCrc) {
        this(id, fileSize, entries, recordBytes, fileCrc, 0);
    }

    @Override
    public String toString() {
        return id + "[" + entries + " values, " + fileSize + "B]";
    }
}
