package dev.strata.client;

import java.util.List;

/**
 * A delete's outcome.
 *
 * @param revision the revision of the write
 * @param deleted  how many keys it deleted
 * @param previous the deleted keys as they were, when asked for; else empty
 */
public record DeleteResult(long revision, long deleted, List<KeyValue> previous) implements OpResult {
    public DeleteResult {
        previous = List.copyOf(previous);
    }
}
