package dev.strata.bench;

import dev.strata.client.AsyncStrataClient;
import dev.strata.client.DeleteResult;
import dev.strata.client.KeyRange;
import dev.strata.client.OutcomeUnknownException;
import dev.strata.client.StrataException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The recovery benchmark's load: puts and deletes through the SDK's async API, at most
 * {@code inFlight} at a time, each on a key the {@link GroundTruth} hands out, every outcome
 * recorded there. It also measures the longest time between two successful commands, the
 * unavailability a client with this many requests in flight sees.
 *
 * <p>One thread issues commands ({@link #issue}, {@link #issueUntil}); completions arrive on
 * gRPC's threads; the counters may be read from any thread.
 */
final class RecoveryLoad {
    /** Keys are {@code r/} and the key number as {@link Keys} writes it. */
    static final String PREFIX = "r/";

    private final AsyncStrataClient kv;
    private final GroundTruth truth;
    private final SeqValues values;
    private final double deleteFraction;
    private final SplittableRandom random;
    private final Semaphore window;
    private final int inFlight;

    private final LongAdder puts = new LongAdder();
    private final LongAdder deletes = new LongAdder();
    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder notApplied = new LongAdder();
    private final LongAdder unknown = new LongAdder();
    /** Acknowledged deletes that deleted nothing, though the ground truth said the key held a value: must stay 0. */
    private final LongAdder emptyDeletes = new LongAdder();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();

    /** Guards the gap watch. */
    private final Object gapLock = new Object();
    private boolean watching;
    private long lastSuccessNanos;
    private long maxGapNanos;
    private long maxGapEndNanos;

    /**
     * @param deleteFraction the share of commands that are deletes, each of a key that holds a value
     *                       (a put instead while no such key is free)
     * @param random         draws the commands and keys; used by the issuing thread only
     */
    RecoveryLoad(AsyncStrataClient kv, GroundTruth truth, SeqValues values, int inFlight, double deleteFraction,
                 SplittableRandom random) {
        this.kv = kv;
        this.truth = truth;
        this.values = values;
        this.inFlight = inFlight;
        this.deleteFraction = deleteFraction;
        this.random = random;
        this.window = new Semaphore(inFlight);
    }

    /** The key of key number {@code k}. */
    static byte[] key(int k) {
        byte[] digits = Keys.of(k);
        byte[] key = Arrays.copyOf(PREFIX.getBytes(StandardCharsets.US_ASCII), PREFIX.length() + digits.length);
        System.arraycopy(digits, 0, key, PREFIX.length(), digits.length);
        return key;
    }

    /** The key number of {@code key}, or -1 when it is not a key of this load. */
    static int keyNumber(byte[] key) {
        if (key.length != PREFIX.length() + Keys.SIZE || key[0] != 'r' || key[1] != '/') {
            return -1;
        }
        long n = 0;
        for (int i = PREFIX.length(); i < key.length; i++) {
            if (key[i] < '0' || key[i] > '9') {
                return -1;
            }
            n = n * 10 + (key[i] - '0');
        }
        return n > Integer.MAX_VALUE ? -1 : (int) n;
    }

    /** Issues {@code count} commands; returns once the last is sent (up to {@code inFlight} are then outstanding). */
    void issue(long count) throws InterruptedException {
        for (long i = 0; i < count; ) {
            if (issueOne()) {
                i++;
            }
        }
    }

    /** Issues commands until {@code stop} says so (asked before each command). */
    void issueUntil(BooleanSupplier stop) throws InterruptedException {
        while (!stop.getAsBoolean()) {
            issueOne();
        }
    }

    private boolean issueOne() throws InterruptedException {
        window.acquire();
        GroundTruth.Command c = truth.begin(random, random.nextDouble() < deleteFraction);
        if (c == null) {
            // Every key drawn was busy or uncertain; rare unless the key space is tiny. Let some commands finish.
            window.release();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            return false;
        }
        CompletableFuture<?> f;
        if (c.delete()) {
            deletes.increment();
            f = kv.delete(KeyRange.key(key(c.key())), false).thenApply(r -> checkDelete(r));
        } else {
            puts.increment();
            f = kv.put(key(c.key()), values.of(c.target()));
        }
        f.whenComplete((r, t) -> complete(c, t));
        return true;
    }

    private DeleteResult checkDelete(DeleteResult r) {
        if (r.deleted() == 0) {
            emptyDeletes.increment();
        }
        return r;
    }

    private void complete(GroundTruth.Command c, Throwable t) {
        try {
            if (t == null) {
                truth.acknowledged(c);
                acknowledged.increment();
                long now = System.nanoTime();
                synchronized (gapLock) {
                    if (watching && now - lastSuccessNanos > maxGapNanos) {
                        maxGapNanos = now - lastSuccessNanos;
                        maxGapEndNanos = now;
                    }
                    lastSuccessNanos = now;
                }
                return;
            }
            Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
            if (cause instanceof StrataException se && !(se instanceof OutcomeUnknownException)) {
                // The SDK's contract: a write it does not call unknown cannot have reached a node.
                truth.notApplied(c);
                notApplied.increment();
                failures.computeIfAbsent(se.code().name(), k -> new LongAdder()).increment();
            } else {
                truth.outcomeUnknown(c);
                unknown.increment();
                failures.computeIfAbsent(cause instanceof StrataException se ? "unknown " + se.code().name()
                        : "unknown " + cause.getClass().getSimpleName(), k -> new LongAdder()).increment();
            }
        } finally {
            window.release();
        }
    }

    /** Waits until no command is outstanding. */
    void drain(Duration timeout) throws InterruptedException {
        if (!window.tryAcquire(inFlight, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("commands still in flight after " + timeout.toSeconds() + " s");
        }
        window.release(inFlight);
    }

    /** From now on, measures the gaps between successful commands, counting from now. */
    void watchGaps() {
        synchronized (gapLock) {
            watching = true;
            lastSuccessNanos = System.nanoTime();
            maxGapNanos = 0;
            maxGapEndNanos = lastSuccessNanos;
        }
    }

    /** The longest gap since {@link #watchGaps}, in nanoseconds, and when it ended ({@link System#nanoTime}). */
    long[] longestGap() {
        synchronized (gapLock) {
            return new long[] {maxGapNanos, maxGapEndNanos};
        }
    }

    /** What the load did, as counted so far. */
    Counts counts() {
        Map<String, Long> byCode = new TreeMap<>();
        failures.forEach((code, n) -> byCode.put(code, n.sum()));
        return new Counts(puts.sum() + deletes.sum(), puts.sum(), deletes.sum(), acknowledged.sum(), notApplied.sum(),
                unknown.sum(), emptyDeletes.sum(), byCode);
    }

    /**
     * Commands issued and how they ended.
     *
     * @param notApplied   failed before they could reach the cluster (the key kept its state)
     * @param unknown      outcome unknown: their keys are uncertain
     * @param emptyDeletes acknowledged deletes that found no key, though it held a value: must be 0
     * @param failures     failed commands by gRPC code; {@code unknown CODE} for outcome-unknown ones
     */
    record Counts(long issued, long puts, long deletes, long acknowledged, long notApplied, long unknown, long emptyDeletes,
                  Map<String, Long> failures) {}
}
