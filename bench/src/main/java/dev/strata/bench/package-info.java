/**
 * Benchmark programs for Strata, started by {@code bin/strata-bench}. They print figures and
 * write JSON; they assert nothing, and none of them runs in {@code mvn verify}.
 *
 * <p>{@link dev.strata.bench.Main} is the picocli top command; each subcommand is one class
 * ({@link dev.strata.bench.EngineCommand} is {@code strata-bench engine}, a db_bench-style run
 * of the storage engine). Workloads reach a storage engine only through
 * {@link dev.strata.bench.BenchTarget}, so the same workload can run on other engines for
 * comparison; {@link dev.strata.bench.StrataTarget} is the Strata one.
 */
package dev.strata.bench;
