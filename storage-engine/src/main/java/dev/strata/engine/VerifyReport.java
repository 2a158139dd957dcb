package dev.strata.engine;

/**
 * What {@link Engine#verify()} read and checked.
 *
 * @param tables         tables read in full (every block's checksum verified)
 * @param entries        entries in them
 * @param valueLogs      value-log files checked
 * @param valuePointers  values read through their pointers (each record's checksum and key verified)
 * @param liveValueBytes value-log record bytes the tables point to, equal to what the manifest counts live
 */
public record VerifyReport(int tables, long entries, int valueLogs, long valuePointers, long liveValueBytes) {}
