/**
 * What the fault-injection harness's clients saw, and the checks that judge it: the history model
 * ({@link dev.strata.it.history.Operation}), {@link dev.strata.it.history.LinearizabilityChecker}
 * for writes and linearizable reads, {@link dev.strata.it.history.SerializableReadChecker} for
 * serializable reads, and {@link dev.strata.it.history.HistoryFile} to save a run and check it
 * again with {@link dev.strata.it.history.CheckHistory}.
 *
 * <p>Everything here is pure and deterministic: no servers, no clocks, no threads. Times are the
 * harness's {@code System.nanoTime()}, recorded by clients in one JVM.
 *
 * <p>A history's writes of values are assumed unique per key (the harness makes every value a
 * fresh token), so a value read names the write that produced it. A value no write produced is
 * itself an anomaly, which is how a corrupted payload shows.
 */
package dev.strata.it.history;
