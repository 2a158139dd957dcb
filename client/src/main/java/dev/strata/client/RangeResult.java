package dev.strata.client;

import java.util.List;

/**
 * One page of a range read (a txn's range, or {@link StrataClient#rangePage}).
 *
 * @param revision the revision of the state the read saw
 * @param kvs      the keys of this page, in unsigned byte order
 * @param more     whether more keys follow this page
 */
public record RangeResult(long revision, List<KeyValue> kvs, boolean more) implements OpResult {
    public RangeResult {
        kvs = List.copyOf(kvs);
    }
}
