/**
 * TLS for a node's two ports: PEM certificates and keys read from files and checked at start
 * ({@link dev.strata.server.tls.Pem}, {@link dev.strata.server.tls.CertifiedKey}), key and trust
 * managers that re-read their files when they change, so a new connection gets the rotated
 * certificate without a restart, and {@link dev.strata.server.tls.ServerTls}, which hands the
 * client port, the Raft transport and the node's own outgoing channels what each needs.
 */
package dev.strata.server.tls;
