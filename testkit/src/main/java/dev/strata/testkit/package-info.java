/**
 * Fixtures that tests and benchmarks share: loopback ports that cannot collide with outgoing
 * connections or other runs ({@link dev.strata.testkit.Ports}), polling a condition with a
 * deadline instead of sleeping ({@link dev.strata.testkit.Await}), a throwaway certificate
 * authority ({@link dev.strata.testkit.TestCertificates}) and a TLS server to point clients at
 * ({@link dev.strata.testkit.SecretServer}). No production module depends on this one.
 */
package dev.strata.testkit;
