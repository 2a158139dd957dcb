/**
 * Fixtures shared by the server's tests and the cluster tests (published as the server's test
 * jar): polling a condition with a deadline instead of sleeping. Loopback ports that cannot
 * collide with outgoing connections ({@code Ports}) are in the main jar, since the benchmarks
 * start nodes too.
 */
package dev.strata.server.testing;
