package dev.strata.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.protobuf.UnsafeByteOperations;
import dev.strata.cli.bench.ValueGenerator;
import dev.strata.proto.v1.BatchOp;
import dev.strata.proto.v1.BatchRequest;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.PutRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongUnaryOperator;

/**
 * Writes keys through the KV service's Batch call (many puts in one Raft entry) from several
 * client threads, each keeping one batch in flight. A batch that fails with a status a retry can
 * cure (no leader yet, a timeout, a stall) is sent again, a few times: its puts are idempotent.
 * Keys are {@link Keys} of key numbers; values come from a {@link ValueGenerator} per thread.
 */
final class BatchLoader {
    private static final int ATTEMPTS = 6;
    private static final long FIRST_BACKOFF_MS = 200;
    private static final long CALL_DEADLINE_SECONDS = 60;

    /** What one {@link #write} did. */
    record Result(long keys, long userBytes, double seconds, long retries) {
        @JsonProperty
        double mbPerSecond() {
            return seconds == 0 ? 0 : userBytes / (double) (1 << 20) / seconds;
        }
    }

    private final KVGrpc.KVBlockingStub kv;
    private final int clients;
    private final int batchSize;
    private final int valueSize;
    private final double compressibility;

    /**
     * @param kv        the node to write through (the leader, so nothing is forwarded)
     * @param clients   threads, each with one batch in flight
     * @param batchSize puts per batch
     */
    BatchLoader(KVGrpc.KVBlockingStub kv, int clients, int batchSize, int valueSize, double compressibility) {
        this.kv = kv;
        this.clients = clients;
        this.batchSize = batchSize;
        this.valueSize = valueSize;
        this.compressibility = compressibility;
    }

    /**
     * Puts keys {@code keyAt(0) .. keyAt(count - 1)}, which must be distinct (a batch may write a
     * key only once), with fresh values; {@code seed} seeds the values.
     *
     * @throws StatusRuntimeException the last failure of a batch that failed every attempt
     */
    Result write(long count, LongUnaryOperator keyAt, long seed) throws InterruptedException {
        AtomicLong next = new AtomicLong();
        LongAdder retries = new LongAdder();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            ValueGenerator values = new ValueGenerator(seed * 1_000_003 + c, valueSize, compressibility);
            futures.add(pool.submit(() -> {
                for (long first = next.getAndAdd(batchSize); first < count; first = next.getAndAdd(batchSize)) {
                    BatchRequest.Builder batch = BatchRequest.newBuilder();
                    for (long i = first; i < Math.min(count, first + batchSize); i++) {
                        batch.addOps(BatchOp.newBuilder().setPut(PutRequest.newBuilder()
                                .setKey(UnsafeByteOperations.unsafeWrap(Keys.of(keyAt.applyAsLong(i))))
                                .setValue(UnsafeByteOperations.unsafeWrap(values.next()))));
                    }
                    send(batch.build(), retries);
                }
                return null;
            }));
        }
        pool.shutdown();
        try {
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            pool.shutdownNow();
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(count, count * (Keys.SIZE + valueSize), seconds, retries.sum());
    }

    private void send(BatchRequest batch, LongAdder retries) throws InterruptedException {
        long backoff = FIRST_BACKOFF_MS;
        for (int attempt = 1; ; attempt++) {
            try {
                kv.withDeadlineAfter(CALL_DEADLINE_SECONDS, TimeUnit.SECONDS).batch(batch);
                return;
            } catch (StatusRuntimeException e) {
                if (attempt == ATTEMPTS || !retryable(e.getStatus().getCode())) {
                    throw e;
                }
                retries.increment();
                Thread.sleep(backoff);
                backoff *= 2;
            }
        }
    }

    private static boolean retryable(Status.Code code) {
        return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
                || code == Status.Code.RESOURCE_EXHAUSTED || code == Status.Code.ABORTED;
    }
}
