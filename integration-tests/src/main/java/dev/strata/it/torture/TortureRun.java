package dev.strata.it.torture;

import dev.strata.client.KeyRange;
import dev.strata.client.KeyValue;
import dev.strata.client.StrataClient;
import dev.strata.client.StrataException;
import dev.strata.it.history.FaultEvent;
import dev.strata.it.history.HistoryFile;
import dev.strata.it.history.LinearizabilityChecker;
import dev.strata.it.history.OpKind;
import dev.strata.it.history.Operation;
import dev.strata.it.history.Outcome;
import dev.strata.it.history.ReadConsistency;
import dev.strata.it.history.RunInfo;
import dev.strata.it.history.SerializableReadChecker;
import dev.strata.it.nemesis.FaultContext;
import dev.strata.it.nemesis.Injection;
import dev.strata.it.nemesis.Nemesis;
import dev.strata.it.workload.Payloads;
import dev.strata.it.workload.Recorder;
import dev.strata.it.workload.Workload;
import dev.strata.testkit.cluster.Digest;
import dev.strata.testkit.cluster.ProcessCluster;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * One fault-injection run on a running cluster: traffic from concurrent clients while a
 * nemesis injects and heals faults in cycles; then every fault healed, the history checked
 * (linearizability, serializable reads), every acknowledged ledger write looked for, and every
 * node's contents compared by digest. Runs on one cluster use distinct key prefixes, so a
 * cluster can serve many runs in a row.
 */
public final class TortureRun {
    private static final Duration RECOVERY = Duration.ofSeconds(120);

    /** How a run is shaped. {@code traffic} is how long the clients run; faults cycle within it. */
    public record Settings(Duration traffic, int clients, int hotKeys, Duration faultFor, Duration quietFor) {
        public static Settings forTests() {
            return new Settings(Duration.ofSeconds(10), 4, 6, Duration.ofSeconds(3), Duration.ofSeconds(2));
        }
    }

    private final ProcessCluster cluster;
    private final Nemesis nemesis;
    private final long seed;
    private final Settings settings;
    private final Path historyFile;

    public TortureRun(ProcessCluster cluster, Nemesis nemesis, long seed, Settings settings, Path historyFile) {
        this.cluster = cluster;
        this.nemesis = nemesis;
        this.seed = seed;
        this.settings = settings;
        this.historyFile = historyFile;
    }

    public RunResult run() throws InterruptedException, IOException {
        Instant started = Instant.now();
        Random random = new Random(seed);
        FaultContext context = new FaultContext(cluster, random);
        Recorder recorder = new Recorder();
        List<FaultEvent> faults = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String prefix = "torture/" + Long.toHexString(seed) + "/";
        int injected = 0;
        long trafficStart;
        long trafficEnd;
        try (Workload workload = new Workload(cluster, prefix, settings.clients(), settings.hotKeys(), seed, recorder)) {
            workload.start();
            trafficStart = System.nanoTime();
            long end = trafficStart + settings.traffic().toNanos();
            sleepUntil(Math.min(end, System.nanoTime() + settings.quietFor().toNanos()));
            while (System.nanoTime() < end - settings.quietFor().toNanos()) {
                boolean active = false;
                try {
                    Injection injection = nemesis.inject(context);
                    faults.add(new FaultEvent(System.nanoTime(), injection.description()));
                    if (injection.faulted()) {
                        injected++;
                    }
                    active = true;
                    sleepUntil(Math.min(end, System.nanoTime() + jitter(random, settings.faultFor())));
                    faults.add(new FaultEvent(System.nanoTime(), nemesis.heal(context)));
                    active = false;
                } catch (RuntimeException e) {
                    problems.add("nemesis " + nemesis.name() + (active ? " heal" : " inject") + " failed: " + e.getMessage());
                    faults.add(new FaultEvent(System.nanoTime(), "nemesis failed: " + e.getMessage()));
                    if (active) {
                        healQuietly(context, faults, problems);
                    }
                }
                sleepUntil(Math.min(end, System.nanoTime() + jitter(random, settings.quietFor())));
            }
            workload.stop();
            trafficEnd = System.nanoTime();
            workload.deadClients().forEach(d -> problems.add("workload " + d));
            recover(problems);
            finalReads(workload, recorder, problems);
        }
        List<Operation> history = recorder.history();
        long lost = lostLedgerWrites(history, prefix, problems);
        Map<Long, Digest> digests = convergedDigests(problems);

        var linearizable = LinearizabilityChecker.check(history);
        var serializable = SerializableReadChecker.check(history);
        RunInfo info = new RunInfo(seed, List.of(nemesis.name()), cluster.memberIds().size(), started,
                Duration.between(started, Instant.now()), faults);
        HistoryFile.write(historyFile, info, history);
        return new RunResult(nemesis.name(), seed, history.size(), count(history, Outcome.OK), count(history, Outcome.FAIL),
                count(history, Outcome.UNKNOWN), injected, linearizable.linearizable(), linearizable.report(), serializable.clean(),
                serializable.report(), lost, digests, List.copyOf(problems),
                maxUnavailability(history, trafficStart, trafficEnd), historyFile);
    }

    private static long jitter(Random random, Duration around) {
        long base = around.toNanos();
        return base / 2 + (long) (random.nextDouble() * base);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    private void healQuietly(FaultContext context, List<FaultEvent> faults, List<String> problems) {
        try {
            faults.add(new FaultEvent(System.nanoTime(), nemesis.heal(context)));
        } catch (RuntimeException e) {
            problems.add("nemesis " + nemesis.name() + " heal after a failure failed: " + e.getMessage());
        }
    }

    /** Undoes whatever is left: the network healed, every paused node resumed, every stopped member started. */
    private void recover(List<String> problems) {
        cluster.network().heal();
        for (long id : cluster.memberIds()) {
            if (cluster.running(id) && cluster.process(id).paused()) {
                cluster.process(id).resume();
            }
            if (!cluster.running(id)) {
                problems.add("node " + id + " was not running after the faults were healed; started it");
                cluster.startNode(id);
            }
        }
        try {
            cluster.awaitCaughtUp(RECOVERY);
        } catch (IllegalStateException e) {
            problems.add("the cluster did not recover: " + e.getMessage());
        }
    }

    /** A linearizable read of every hot key after the faults, recorded so the checker judges the final state too. */
    private void finalReads(Workload workload, Recorder recorder, List<String> problems) {
        try (StrataClient sdk = StrataClient.builder().endpoints(cluster.clientAddresses()).timeout(Duration.ofSeconds(10)).build()) {
            for (String key : workload.hotKeys()) {
                Recorder.Call call = recorder.invoke(0, OpKind.GET, key, null, null, null, ReadConsistency.LINEARIZABLE, 0);
                try {
                    Optional<KeyValue> kv = sdk.get(key.getBytes(), dev.strata.client.Consistency.LINEARIZABLE);
                    call.read(kv.map(v -> Payloads.name(v.value())).orElse(null), 0, kv.map(KeyValue::modRevision).orElse(0L));
                } catch (StrataException e) {
                    call.failed(e.code() + ": " + e.getMessage());
                    problems.add("the final read of " + key + " failed: " + e.getMessage());
                }
            }
        }
    }

    /**
     * Acknowledged ledger puts (each to its own key, never overwritten) missing or wrong at the
     * end; a failed ledger put whose key exists is a problem too (it was applied after all).
     */
    private long lostLedgerWrites(List<Operation> history, String prefix, List<String> problems) {
        String ledger = prefix + "ledger/";
        Map<String, String> present = new HashMap<>();
        try (StrataClient sdk = StrataClient.builder().endpoints(cluster.clientAddresses()).timeout(Duration.ofSeconds(30)).build()) {
            sdk.range(KeyRange.prefix(ledger)).forEach(kv -> present.put(kv.keyUtf8(), Payloads.name(kv.value())));
        } catch (StrataException e) {
            problems.add("reading the ledger failed: " + e.getMessage());
            return -1;
        }
        long lost = 0;
        Set<String> written = new LinkedHashSet<>();
        for (Operation op : history) {
            if (op.kind() != OpKind.PUT || !op.key().startsWith(ledger)) {
                continue;
            }
            written.add(op.key());
            String found = present.get(op.key());
            if (op.outcome() == Outcome.OK && !op.value().equals(found)) {
                lost++;
                problems.add("acknowledged write lost: " + op.key() + " = " + op.value() + " (found " + found + ")");
            } else if (op.outcome() == Outcome.FAIL && found != null) {
                problems.add("a put reported failed was applied: " + op.key() + " (" + op.error() + ")");
            }
        }
        for (String key : present.keySet()) {
            if (!written.contains(key)) {
                problems.add("ledger key nobody wrote: " + key);
            }
        }
        return lost;
    }

    /** Every running member's digest, once they agree (they may still be applying the last entries). */
    private Map<Long, Digest> convergedDigests(List<String> problems) {
        Map<Long, Digest> digests = new HashMap<>();
        for (int attempt = 0; attempt < 3; attempt++) {
            digests.clear();
            try {
                cluster.awaitCaughtUp(RECOVERY);
                for (long id : cluster.memberIds()) {
                    digests.put(id, cluster.digest(id));
                }
            } catch (RuntimeException e) {
                LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
                continue;
            }
            if (digests.values().stream().distinct().count() == 1) {
                return digests;
            }
            LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
        }
        problems.add("the nodes did not converge to the same contents: " + digests);
        return digests;
    }

    /** The longest stretch of the traffic phase in which no write succeeded, in milliseconds. */
    static long maxUnavailability(List<Operation> history, long trafficStart, long trafficEnd) {
        List<Long> completions = history.stream()
                .filter(op -> op.outcome() == Outcome.OK && op.kind() != OpKind.GET && op.kind() != OpKind.RANGE)
                .map(Operation::completedNanos)
                .filter(t -> t <= trafficEnd)
                .sorted()
                .toList();
        long previous = trafficStart;
        long longest = 0;
        for (long t : completions) {
            longest = Math.max(longest, t - previous);
            previous = t;
        }
        longest = Math.max(longest, trafficEnd - previous);
        return Duration.ofNanos(longest).toMillis();
    }

    private static long count(List<Operation> history, Outcome outcome) {
        return history.stream().filter(op -> op.outcome() == outcome).count();
    }
}
