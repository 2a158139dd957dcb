/**
 * The key-value semantics of the replicated store, independent of Raft and gRPC: how user
 * keys and revisions are stored in the engine ({@link dev.strata.server.kv.KeySpace},
 * {@link dev.strata.server.kv.StoredValue}), which requests are valid
 * ({@link dev.strata.server.kv.RequestValidator}), how a log entry changes the store
 * ({@link dev.strata.server.kv.CommandApplier}) and how reads and range pages are served
 * ({@link dev.strata.server.kv.KvReader}).
 *
 * <p>Everything here is deterministic: applying the same commands to the same engine state
 * gives the same state and the same responses on every node.
 */
package dev.strata.server.kv;
