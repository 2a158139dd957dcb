/**
 * Benchmark programs for Strata, started by {@code bin/strata-bench}. They print figures and
 * write JSON; they assert nothing, and none of them runs in {@code mvn verify}.
 *
 * <p>{@link dev.strata.bench.Main} is the picocli top command; each subcommand is one class
 * ({@link dev.strata.bench.EngineCommand} is {@code strata-bench engine}, a db_bench-style run
 * of the storage engine, alone or beside RocksDB; {@link dev.strata.bench.CompressionCommand}
 * is {@code strata-bench compression}, the compression study;
 * {@link dev.strata.bench.CheckpointCommand} is {@code strata-bench checkpoint}, followers
 * catching up from shipped checkpoints in a three-node cluster that
 * {@link dev.strata.testkit.cluster.InProcessCluster} runs in the process). Workloads reach a storage engine
 * only through {@link dev.strata.bench.BenchTarget}, so the same workload runs on every engine:
 * {@link dev.strata.bench.StrataTarget} is Strata, {@link dev.strata.bench.RocksDbTarget} is
 * RocksDB with options mirroring Strata's ({@link dev.strata.bench.RocksDbOptions}). What the
 * harness measures itself, the same way for every engine, is in
 * {@link dev.strata.bench.DiskUse} and {@link dev.strata.bench.ProcessCounters};
 * {@code docs/benchmarks.md} defines every figure. The cluster benchmarks, {@code cluster} and
 * {@code versus-etcd} (Strata beside etcd under one driver), are in {@link dev.strata.bench.cluster}.
 */
package dev.strata.bench;
