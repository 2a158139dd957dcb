package dev.strata.cli.bench;

import dev.strata.client.StrataException;

import java.util.SplittableRandom;

/**
 * One client thread of a run: it draws an operation from the mix and a key from the
 * distribution, runs it through the shared {@link Target}, waits for it, and records it in
 * the meter; then the next at once (closed loop) or when the next is due (open loop,
 * {@link Pacer}). A call that fails ({@link StrataException}, an unknown outcome included) is
 * counted by its code and the loop goes on, so a run rides through a leader change or a node
 * going down. Not thread-safe: a worker runs on one thread at a time, one phase after another.
 */
final class Worker {
    private final Target target;
    private final BenchSettings settings;
    private final OperationMix mix;
    private final KeySpace keys;
    private final InsertCounter inserts;
    private final Meter meter;
    private final SplittableRandom random;
    private final KeyChooser chooser;
    private final ValueGenerator values;

    Worker(Target target, BenchSettings settings, KeySpace keys, InsertCounter inserts, Meter meter,
           SplittableRandom random) {
        this.target = target;
        this.settings = settings;
        this.mix = settings.mix();
        this.keys = keys;
        this.inserts = inserts;
        this.meter = meter;
        this.random = random;
        this.chooser = settings.distribution().chooser(settings, inserts, random);
        this.values = new ValueGenerator(random.nextLong(), Math.toIntExact(settings.valueSize()), settings.compressibility());
    }

    /** Closed loop: runs operations one after another until {@code end} says stop. */
    void run(PhaseEnd end) {
        while (end.next()) {
            runOne(mix.next(random), System.nanoTime());
        }
    }

    /**
     * Open loop: claims operations from {@code pacer}, starts each when it is due, and measures
     * its latency from then, until {@code end} says stop.
     */
    void run(PhaseEnd end, Pacer pacer) {
        while (end.next()) {
            long due = pacer.claim();
            if (!end.admits(due)) {
                return;
            }
            Pacer.awaitDue(due);
            runOne(mix.next(random), due);
        }
    }

    /** Runs {@code op} and records it, its latency counted from {@code start}. */
    private void runOne(OpType op, long start) {
        try {
            boolean found = switch (op) {
                case READ -> read();
                case UPDATE -> update();
                case INSERT -> insert();
                case SCAN -> scan();
                case READ_MODIFY_WRITE -> readModifyWrite();
            };
            meter.succeeded(op, System.nanoTime() - start, found);
        } catch (StrataException e) {
            meter.failed(op, e.code());
        }
    }

    /** Whether the key was found; --hit-rate of reads ask for a key that was written. */
    private boolean read() {
        long n = chooser.next();
        byte[] key = random.nextDouble() < settings.hitRate() ? keys.key(n) : keys.absent(n);
        return target.get(key, settings.consistency());
    }

    private boolean update() {
        target.put(keys.key(chooser.next()), values.next());
        return true;
    }

    private boolean insert() {
        long n = inserts.next();
        try {
            target.put(keys.key(n), values.next());
        } finally {
            inserts.finished(n);
        }
        return true;
    }

    /** Reads 1 to --max-scan-length keys from a chosen one on, as YCSB's scan (uniform length). */
    private boolean scan() {
        int length = 1 + random.nextInt(settings.maxScanLength());
        target.scan(keys.key(chooser.next()), keys.end(), length, settings.consistency());
        return true;
    }

    /** A read, then a write of the same key, timed together; whether the read found the key. */
    private boolean readModifyWrite() {
        byte[] key = keys.key(chooser.next());
        boolean found = target.get(key, settings.consistency());
        target.put(key, values.next());
        return found;
    }
}
