package dev.strata.client;

/** What one operation of a txn or batch did. */
public sealed interface OpResult permits PutResult, DeleteResult, RangeResult {
    /** The revision of the write (or, for a read, of the state it saw). */
    long revision();
}
