/**
 * The cluster driver: one load generator for Strata and etcd, so the two can be compared with
 * nothing but the server changed.
 *
 * <p>{@link dev.strata.bench.cluster.VersusEtcdCommand} ({@code strata-bench versus-etcd}) starts
 * both systems as processes on this machine
 * ({@code LocalEtcd}, {@code LocalStrata}), measures them round after round and summarises the
 * rounds ({@code VersusSummary}: medians and per-round ratios Strata / etcd). To measure a cluster
 * someone else started, Strata's or etcd's, {@code strata bench} (the command line's
 * {@code dev.strata.cli.bench}) runs workloads against it.
 *
 * <p>The parts: a system is a {@code KvTarget} ({@code StrataKvTarget} over Strata's generated
 * stubs, {@code EtcdKvTarget} over etcd's own protos, which the command line's module compiles,
 * both on the same {@code Channels}); a {@code Route} says which endpoints a run uses (leader,
 * a follower, all); {@code ClosedLoop} keeps N operations in flight, {@code OpenLoop} offers a
 * fixed rate on a {@code OpenLoopSchedule} and measures latency from each operation's intended start;
 * {@code Outcomes} keeps successes (an HdrHistogram) and failures (by gRPC status) apart;
 * {@code Driver} runs one workload and samples the servers' CPU time ({@code ProcStat}) and its
 * own at the two ends of the measured window.
 *
 * <p>Rules every figure follows: the warm-up does not count (closed loop: operations answered
 * before the measured window; open loop: operations due before it), and nothing is cut off at the
 * end (the last operations are waited for); throughput and latency are of successful operations;
 * every failure is counted by name, timeouts also alone; an open-loop operation that could not be
 * sent is a failure ({@code NOT_SENT}), never a gap.
 */
package dev.strata.bench.cluster;
