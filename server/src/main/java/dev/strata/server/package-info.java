/**
 * A Strata node: {@link dev.strata.server.StrataServer} wires the Raft node
 * ({@code raft}), the gRPC API ({@code grpc}), metrics and the HTTP port ({@code metrics})
 * from a configuration ({@code config}); {@link dev.strata.server.Main} is
 * {@code strata-server}.
 */
package dev.strata.server;
