/**
 * Metrics and the HTTP port: Micrometer meters for the engine ({@code strata_engine_*}), Raft
 * ({@code strata_raft_*}) and checkpoints ({@code strata_checkpoint_*}) read from the node's live
 * state, the data directory's disk space ({@code strata_disk_*}), and the HTTP server that
 * serves them in Prometheus format beside {@code /healthz} and {@code /readyz}.
 */
package dev.strata.server.metrics;
