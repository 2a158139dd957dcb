/**
 * The workload benchmark behind {@code strata bench}: it drives a running cluster through the
 * SDK, as YCSB and LogKV's tool do, and reports throughput and latency percentiles.
 *
 * <p>{@link dev.strata.cli.bench.Benchmark} runs it: a load of the key space with batched puts
 * (package-private {@code Loader}), then {@code Worker}s, one per client thread, sharing one
 * {@link dev.strata.client.StrataClient}, in a closed loop or paced by a {@code Pacer} (open
 * loop). Each worker draws an operation from the {@link dev.strata.cli.bench.Workload}'s mix and
 * a key from the {@link dev.strata.cli.bench.Distribution} ({@code ScrambledZipfian} over
 * {@code ZipfianGenerator}, {@code LatestChooser}, {@code HotspotChooser}, or uniform), and
 * records the call in the {@code Meter} without locks; once a second the progress line harvests
 * the meter. {@link dev.strata.cli.bench.BenchReport} holds the result,
 * {@link dev.strata.cli.bench.SummaryTable} prints it and
 * {@link dev.strata.cli.bench.JsonReport} writes it.
 *
 * <p>{@link dev.strata.cli.bench.ValueGenerator}, {@link dev.strata.cli.bench.LatencySummary}
 * and {@link dev.strata.cli.bench.MachineInfo} are public because the engine benchmarks of the
 * bench module use them too.
 */
package dev.strata.cli.bench;
