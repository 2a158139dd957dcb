/**
 * Fixtures shared by the server's tests and the cluster tests (published as the server's test
 * jar): loopback ports that cannot collide with outgoing connections, and polling a condition
 * with a deadline instead of sleeping.
 */
package dev.strata.server.testing;
