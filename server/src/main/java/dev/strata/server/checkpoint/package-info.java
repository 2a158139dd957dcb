/**
 * The sending side of checkpoint shipping: the internal {@code CheckpointTransfer} service that
 * plans and streams a checkpoint's files (or the incremental chain's deltas) from any node. The
 * receiving side (fetch, staging, install, backups) is the {@code dev.strata.transfer} module's.
 */
package dev.strata.server.checkpoint;
