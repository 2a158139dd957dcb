package dev.strata.client;

import java.util.List;

/**
 * A txn's outcome.
 *
 * @param succeeded whether every compare held (the {@code then} branch ran) or not ({@code orElse})
 * @param revision  the revision the txn ran at
 * @param results   one per operation of the branch that ran, in order
 */
public record TxnResult(boolean succeeded, long revision, List<OpResult> results) {
    public TxnResult {
        results = List.copyOf(results);
    }
}
