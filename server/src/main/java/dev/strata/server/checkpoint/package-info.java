/**
 * Checkpoint shipping: the internal {@code CheckpointTransfer} service that plans and streams a
 * checkpoint's files (or the incremental chain's deltas) from any node, the fetcher that stages
 * them on a receiver (a lagging follower, a new member, a backup directory) with resume and
 * per-chunk verification, and the backups built on both.
 */
package dev.strata.server.checkpoint;
