/**
 * Metrics and the HTTP port: Micrometer meters for the engine ({@code strata_engine_*}) and
 * Raft ({@code strata_raft_*}) read from the node's live state, and the HTTP server that
 * serves them in Prometheus format beside {@code /healthz} and {@code /readyz}.
 */
package dev.strata.server.metrics;
