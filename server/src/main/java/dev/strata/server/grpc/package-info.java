/**
 * The gRPC API of a node: the {@code strata.v1.KV} and {@code strata.v1.Cluster} services,
 * the mapping of every failure to a status code ({@link dev.strata.server.grpc.Errors}), the
 * request metrics, and the server that also carries {@code grpc.health.v1.Health} and
 * reflection.
 */
package dev.strata.server.grpc;
