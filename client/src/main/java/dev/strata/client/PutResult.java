package dev.strata.client;

/**
 * A put's outcome.
 *
 * @param revision the revision of the write
 * @param previous the key as it was before, when asked for and present; else null
 */
public record PutResult(long revision, KeyValue previous) implements OpResult {}
