package dev.strata.bench;

import com.google.protobuf.ByteString;
import dev.strata.client.bench.LatencySummary;
import dev.strata.client.bench.MachineInfo;
import dev.strata.client.bench.ValueGenerator;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.PutRequest;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code strata-bench cluster}: put and linearizable get throughput and latency against a
 * running cluster (such as {@code bin/strata-dev}), through the generated gRPC stubs. Each run
 * is a closed loop: N workers each keep one request in flight, spreading requests over every
 * endpoint as a client without leader affinity would; latencies go to HdrHistogram.
 */
@Command(name = "cluster", sortOptions = false,
        description = {"Measures put and linearizable get against a running Strata cluster (start one with bin/strata-dev).",
                "For each concurrency: a warm-up, then a timed run of puts, then of gets of the keys just written."})
final class ClusterCommand implements Callable<Integer> {
    @Option(names = "--endpoints", split = ",", paramLabel = "HOST:PORT,...", hideParamSyntax = true,
            defaultValue = "127.0.0.1:7100,127.0.0.1:7110,127.0.0.1:7120",
            description = "gRPC addresses of the nodes (default: ${DEFAULT-VALUE}, bin/strata-dev's).")
    List<String> endpoints;

    @Option(names = "--concurrency", split = ",", paramLabel = "N,...", hideParamSyntax = true, defaultValue = "1,16,128",
            description = "Requests in flight, one run per value (default: ${DEFAULT-VALUE}).")
    List<Integer> concurrency;

    @Option(names = "--value-size", defaultValue = "256", paramLabel = "BYTES", description = "Value size (default: ${DEFAULT-VALUE}).")
    int valueSize;

    @Option(names = "--keys", defaultValue = "100000", paramLabel = "N", description = "Distinct keys (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--duration", defaultValue = "10", paramLabel = "SECONDS",
            description = "Measured seconds per operation and concurrency (default: ${DEFAULT-VALUE}).")
    int durationSeconds;

    @Option(names = "--warmup", defaultValue = "3", paramLabel = "SECONDS",
            description = "Unmeasured seconds before each run (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "N", description = "Seed of keys and values (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    /** One timed run of one operation at one concurrency. */
    record Run(String op, int concurrency, long ops, double opsPerSecond, LatencySummary latencyMicros, Map<String, Long> errors) {}

    /** Everything a cluster benchmark measured, with what it ran against. */
    record Report(List<String> endpoints, int valueSize, int keys, int durationSeconds, int warmupSeconds, MachineInfo client,
                  List<Run> runs) {}

    private enum Op { PUT, GET }

    @Override
    public Integer call() throws Exception {
        List<ManagedChannel> channels = endpoints.stream()
                .map(e -> Grpc.newChannelBuilder(e, InsecureChannelCredentials.create())
                        .maxInboundMessageSize(Integer.MAX_VALUE) // a get of a value over gRPC's default 4 MiB
                        .build())
                .toList();
        List<Run> runs = new ArrayList<>();
        try {
            System.out.printf("cluster %s, %d-byte values, %d keys, %d s per run (after %d s warm-up)%n",
                    endpoints, valueSize, keys, durationSeconds, warmupSeconds);
            System.out.printf("%-4s %11s %12s %10s %10s %10s %10s %8s%n", "op", "concurrency", "ops/s", "p50 us", "p99 us",
                    "p99.9 us", "max us", "errors");
            for (int c : concurrency) {
                for (Op op : Op.values()) {
                    run(channels, op, c, Duration.ofSeconds(warmupSeconds));
                    Run r = run(channels, op, c, Duration.ofSeconds(durationSeconds));
                    runs.add(r);
                    System.out.printf("%-4s %11d %12.0f %10.0f %10.0f %10.0f %10.0f %8d%n", r.op(), c, r.opsPerSecond(),
                            r.latencyMicros().p50(), r.latencyMicros().p99(), r.latencyMicros().p999(), r.latencyMicros().max(),
                            r.errors().values().stream().mapToLong(Long::longValue).sum());
                }
            }
        } finally {
            channels.forEach(ManagedChannel::shutdownNow);
            for (ManagedChannel ch : channels) {
                ch.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
        if (json != null) {
            JsonReport.write(json, new Report(endpoints, valueSize, keys, durationSeconds, warmupSeconds, MachineInfo.current(), runs));
            System.out.println("wrote " + json);
        }
        return 0;
    }

    /** Runs {@code op} with {@code workers} requests in flight for {@code length}; closed loop, one blocking call per worker. */
    private Run run(List<ManagedChannel> channels, Op op, int workers, Duration length) throws Exception {
        Recorder latencies = new Recorder(3);
        LongAdder done = new LongAdder();
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        long end = start + length.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int worker = w;
            futures.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(seed * 1_000_003 + worker * 7919L + op.ordinal());
                ValueGenerator values = new ValueGenerator(seed + worker, valueSize, 0.5);
                int next = worker;
                for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
                    KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channels.get(next++ % channels.size()))
                            .withDeadlineAfter(30, TimeUnit.SECONDS);
                    ByteString key = ByteString.copyFrom(String.format("bench/%012d", random.nextInt(keys)), StandardCharsets.US_ASCII);
                    try {
                        if (op == Op.PUT) {
                            kv.put(PutRequest.newBuilder().setKey(key).setValue(ByteString.copyFrom(values.next())).build());
                        } else {
                            kv.get(GetRequest.newBuilder().setKey(key).build());
                        }
                        latencies.recordValue(System.nanoTime() - now);
                        done.increment();
                    } catch (StatusRuntimeException e) {
                        errors.computeIfAbsent(e.getStatus().getCode().name(), k -> new LongAdder()).increment();
                    }
                }
                return null;
            }));
        }
        pool.shutdown();
        for (Future<?> f : futures) {
            f.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Histogram h = latencies.getIntervalHistogram();
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((code, n) -> errorCounts.put(code, n.sum()));
        return new Run(op.name().toLowerCase(), workers, done.sum(), done.sum() / seconds, LatencySummary.of(h), errorCounts);
    }
}
