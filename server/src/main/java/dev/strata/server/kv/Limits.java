package dev.strata.server.kv;

/**
 * The size limits a request must respect, and the bounds of one range page.
 *
 * @param maxValueSize   largest value of one put, in bytes
 * @param maxRequestSize largest serialized request (a Txn or Batch with all its values), in bytes
 * @param maxPageEntries most entries in one range page
 * @param maxPageBytes   a range page stops before this many bytes of entries (it always holds at least one)
 */
public record Limits(long maxValueSize, long maxRequestSize, int maxPageEntries, long maxPageBytes) {
    /** The largest key, as in etcd's and TiKV's practice of keeping keys small: 64 KiB. */
    public static final int MAX_KEY_SIZE = 64 * 1024;

    public Limits {
        if (maxValueSize < 1 || maxRequestSize < maxValueSize || maxPageEntries < 1 || maxPageBytes < 1) {
            throw new IllegalArgumentException("invalid limits: " + maxValueSize + ", " + maxRequestSize + ", "
                    + maxPageEntries + ", " + maxPageBytes);
        }
    }
}
