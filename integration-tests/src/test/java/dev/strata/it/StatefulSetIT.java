package dev.strata.it;

import dev.strata.client.Consistency;
import dev.strata.client.KeyRange;
import dev.strata.client.KeyValue;
import dev.strata.client.Member;
import dev.strata.client.NodeStatus;
import dev.strata.client.RangeOptions;
import dev.strata.client.StrataClient;
import dev.strata.client.StrataException;
import dev.strata.testkit.Await;
import dev.strata.testkit.Ports;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Three, then five, then three {@code strata-server} processes configured as the StatefulSet in
 * {@code k8s/base} configures its pods: the same ports for every pod, the peer Service and the
 * initial size from {@code STRATA_CLUSTER_STATEFULSET_*}, and only {@code POD_NAME} telling them
 * apart. Each pod gets an address of its own, as pods get their own IPs: 127.1.&lt;ordinal&gt;.1,
 * which Linux routes to loopback; the host template maps pod names to them where Kubernetes has
 * {@code {pod}.{service}.{namespace}.svc.cluster.local}. Nothing else differs from a cluster's
 * path through {@code StatefulSetPeers}.
 *
 * <p>Then the scaling procedure of the README: pods added by scaling up start in join mode, are
 * added as learners and promoted; before scaling down, the highest ordinals are removed from
 * the membership, then their pods stop. A writer keeps writing throughout; every write it saw
 * acknowledged, and every key written between the steps, must be on every remaining node.
 */
class StatefulSetIT {
    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final String SERVICE = "strata-peer";
    private static final String NAMESPACE = "strata-it";
    private static final int INITIAL = 3;
    private static final int MAX = 5;

    @TempDir
    Path dir;
    private int clientPort;
    private int raftPort;
    private int httpPort;
    private final Map<Integer, ServerProcess> pods = new TreeMap<>();
    private final List<ManagedChannel> channels = new ArrayList<>();
    private final List<StrataClient> clients = new ArrayList<>();
    private final Map<String, String> written = new TreeMap<>();

    /** Pod {@code ordinal}'s address: what the host template below renders for it. */
    private static String host(int ordinal) {
        return "127.1." + ordinal + ".1";
    }

    @BeforeEach
    void ports() {
        // 127.0.0.0/8 is all loopback on Linux; elsewhere (macOS) only 127.0.0.1 may be, and this test cannot run.
        for (int i = 0; i < MAX; i++) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(host(i), 0));
            } catch (IOException e) {
                assumeTrue(false, "cannot bind " + host(i) + " (" + e.getMessage() + "): this system routes only 127.0.0.1 to loopback");
            }
        }
        clientPort = Ports.free();
        raftPort = Ports.free();
        httpPort = Ports.free();
    }

    @AfterEach
    void stop() throws InterruptedException {
        clients.forEach(StrataClient::close);
        for (ManagedChannel c : channels) {
            c.shutdownNow();
        }
        for (ServerProcess p : pods.values()) {
            if (p.alive()) {
                p.kill9();
            }
        }
    }

    /** Starts pod {@code ordinal} with the configuration of k8s/base, the ordinal known only from POD_NAME. */
    private ServerProcess startPod(int ordinal) {
        Map<String, String> env = new HashMap<>();
        env.put("POD_NAME", "strata-" + ordinal);
        env.put("POD_NAMESPACE", NAMESPACE);
        // What the base's ConfigMap sets (k8s/base/kustomization.yaml), but the template.
        env.put("STRATA_CLUSTER_STATEFULSET_SERVICE", SERVICE);
        env.put("STRATA_CLUSTER_STATEFULSET_INITIAL_SIZE", Integer.toString(INITIAL));
        env.put("STRATA_CLUSTER_STATEFULSET_HOST_TEMPLATE", "127.1.{ordinal}.1");
        env.put("STRATA_SERVER_CLIENT_PORT", Integer.toString(clientPort));
        env.put("STRATA_SERVER_RAFT_PORT", Integer.toString(raftPort));
        env.put("STRATA_SERVER_HTTP_PORT", Integer.toString(httpPort));
        env.put("STRATA_SERVER_BIND_ADDRESS", host(ordinal));
        env.put("STRATA_DATA_DIR", dir.resolve("strata-" + ordinal).toString());
        env.put("STRATA_ENGINE_WRITE_BUFFER_SIZE", "4MiB");
        env.put("STRATA_ENGINE_BLOCK_CACHE_SIZE", "8MiB");
        ServerProcess p = ServerProcess.start(Map.of(), env, dir.resolve("strata-" + ordinal + ".log"));
        pods.put(ordinal, p);
        return p;
    }

    private String clientAddress(int ordinal) {
        return host(ordinal) + ":" + clientPort;
    }

    private String raftAddress(int ordinal) {
        return host(ordinal) + ":" + raftPort;
    }

    private StrataClient client(List<String> endpoints) {
        StrataClient c = StrataClient.builder().endpoints(endpoints).timeout(Duration.ofSeconds(10)).build();
        clients.add(c);
        return c;
    }

    /** A client that talks to pod {@code ordinal} only (its own status, its local reads). */
    private StrataClient pod(int ordinal) {
        return client(List.of(clientAddress(ordinal)));
    }

    private ServingStatus health(ManagedChannel channel, String service) {
        return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
    }

    private ManagedChannel channel(int ordinal) {
        ManagedChannel c = Grpc.newChannelBuilder(clientAddress(ordinal), InsecureChannelCredentials.create()).build();
        channels.add(c);
        return c;
    }

    private void write(StrataClient client, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            String key = prefix + i;
            client.put(key, "value of " + key);
            written.put(key, "value of " + key);
        }
    }

    /**
     * Waits until pod {@code ordinal} has applied everything committed now, then reads all its
     * keys locally. "Committed now" is the highest commit index any running pod reports: that is
     * the leader's, while a follower learns of a commit only with the leader's next message, so
     * its own figure may leave out writes the leader has already acknowledged.
     */
    private Map<String, String> localContents(int ordinal) {
        StrataClient local = pod(ordinal);
        long commit = 0;
        for (Map.Entry<Integer, ServerProcess> p : pods.entrySet()) {
            if (p.getValue().alive()) {
                commit = Math.max(commit, pod(p.getKey()).status().commitIndex());
            }
        }
        long committed = commit;
        Await.until(() -> local.status().appliedIndex() >= committed, STARTUP, "pod " + ordinal + " to apply index " + committed);
        return local.range(KeyRange.from(""), RangeOptions.defaults().withConsistency(Consistency.SERIALIZABLE))
                .collect(Collectors.toMap(KeyValue::keyUtf8, KeyValue::valueUtf8, (a, b) -> b, TreeMap::new));
    }

    private static List<Long> voters(StrataClient c) {
        return c.members().stream().filter(m -> !m.learner()).map(Member::id).toList();
    }

    /**
     * Waits until every running pod's own view of the configuration (MemberList answers from the
     * pod asked, and a follower's view may trail the leader's for a moment) holds exactly these
     * voters; on a timeout, names what each pod saw.
     */
    private void awaitEveryPodSeesVoters(List<Long> expected) {
        Map<Integer, StrataClient> views = new TreeMap<>();
        for (int ordinal = 0; ordinal < expected.size(); ordinal++) {
            views.put(ordinal, pod(ordinal));
        }
        Map<Integer, Object> seen = new ConcurrentHashMap<>();
        Map<Integer, Object> first = new TreeMap<>();
        long start = System.nanoTime();
        try {
            Await.until(() -> {
                boolean all = true;
                for (Map.Entry<Integer, StrataClient> e : views.entrySet()) {
                    List<Long> voters = voters(e.getValue());
                    seen.put(e.getKey(), voters);
                    all &= voters.equals(expected);
                }
                if (first.isEmpty()) {
                    first.putAll(seen);
                }
                return all;
            }, STARTUP, "every pod to see the voters " + expected);
            if (!first.values().stream().allMatch(expected::equals)) {
                System.out.printf("StatefulSetIT: the pods first saw (by ordinal) %s; all saw %s after %d ms%n", first, expected,
                        (System.nanoTime() - start) / 1_000_000);
            }
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the pods saw (by ordinal) " + new TreeMap<>(seen), e.getCause());
        }
    }

    @Test
    void podsFindEachOtherFromTheirNamesServeWritesAndScaleThreeToFiveToThree() throws Exception {
        for (int i = 0; i < INITIAL; i++) {
            startPod(i);
        }
        // The client Service's view: the initial pods, whichever of them answers.
        StrataClient cluster = client(List.of(clientAddress(0), clientAddress(1), clientAddress(2)));
        for (int i = 0; i < INITIAL; i++) {
            StrataClient p = pod(i);
            int ordinal = i;
            Await.until(() -> p.status().leaderId() != 0, STARTUP, "pod " + i + " to know a leader");
            assertThat(p.status().memberId()).as("pod %d's id", ordinal).isEqualTo(ordinal + 1);
        }
        // The peers each pod derived: ids 1..3 at the template's host and the shared ports.
        assertThat(cluster.members()).containsExactly(
                new Member(1, raftAddress(0), clientAddress(0), false),
                new Member(2, raftAddress(1), clientAddress(1), false),
                new Member(3, raftAddress(2), clientAddress(2), false));
        write(cluster, "formed/", 50);
        for (int i = 0; i < INITIAL; i++) {
            ManagedChannel ch = channel(i);
            Await.until(() -> health(ch, "strata.v1.KV") == ServingStatus.SERVING, STARTUP, "pod " + i + " to report ready");
        }

        try (Writer writer = new Writer(cluster)) {
            writer.awaitProgress(10);

            // Scale up: pods 3 and 4 start in join mode; live, not ready, until added.
            for (int ordinal = INITIAL; ordinal < MAX; ordinal++) {
                startPod(ordinal);
            }
            for (int ordinal = INITIAL; ordinal < MAX; ordinal++) {
                ManagedChannel ch = channel(ordinal);
                int o = ordinal;
                Await.until(() -> health(ch, "") == ServingStatus.SERVING, STARTUP, "pod " + o + " to report live");
                assertThat(health(ch, "strata.v1.KV")).as("pod %d's readiness before MemberAdd", o).isEqualTo(ServingStatus.NOT_SERVING);
                assertThat(pod(ordinal).status().memberId()).isEqualTo(ordinal + 1);
            }
            for (int ordinal = INITIAL; ordinal < MAX; ordinal++) {
                long id = ordinal + 1;
                int o = ordinal;
                changeMembership(() -> cluster.addMember(id, raftAddress(o), clientAddress(o)), StrataException.Code.ALREADY_EXISTS);
                localContents(ordinal);
                changeMembership(() -> cluster.promoteMember(id), StrataException.Code.FAILED_PRECONDITION);
                writer.awaitProgress(10);
                write(cluster, "added-" + id + "/", 20);
            }
            awaitEveryPodSeesVoters(List.of(1L, 2L, 3L, 4L, 5L));
            for (int ordinal = INITIAL; ordinal < MAX; ordinal++) {
                ManagedChannel ch = channel(ordinal);
                int o = ordinal;
                Await.until(() -> health(ch, "strata.v1.KV") == ServingStatus.SERVING, STARTUP, "pod " + o + " to report ready");
                assertThat(missing(localContents(ordinal))).as("written entries missing or different on pod %d", o).isEmpty();
            }

            // Scale down: highest ordinal first, out of the membership before the pod goes.
            for (int ordinal = MAX - 1; ordinal >= INITIAL; ordinal--) {
                long id = ordinal + 1;
                NodeStatus status = cluster.status();
                if (status.leaderId() == id) {
                    cluster.transferLeader(1);
                }
                changeMembership(() -> cluster.removeMember(id), StrataException.Code.NOT_FOUND);
                Await.until(() -> !voters(cluster).contains(id), STARTUP, "node " + id + " to leave the configuration");
                pods.get(ordinal).terminate();
                writer.awaitProgress(10);
                write(cluster, "removed-" + id + "/", 20);
            }
            assertThat(voters(cluster)).containsExactly(1L, 2L, 3L);
            writer.awaitProgress(10);
            writer.stop();
            System.out.printf("StatefulSetIT: the writer had %d writes acknowledged and %d not%n", writer.acknowledged.size(),
                    writer.failures.get());
            written.putAll(writer.acknowledged);
        }

        for (int i = 0; i < INITIAL; i++) {
            assertThat(missing(localContents(i))).as("written entries missing or different on pod %d", i).isEmpty();
        }
        Map<String, String> linearizable = cluster.range(KeyRange.from("")).collect(
                Collectors.toMap(KeyValue::keyUtf8, KeyValue::valueUtf8, (a, b) -> b, TreeMap::new));
        assertThat(missing(linearizable)).as("written entries missing or different in a linearizable range").isEmpty();
    }

    /** The entries of {@code written} that {@code contents} lacks or holds another value for: a short report when some are lost. */
    private Map<String, String> missing(Map<String, String> contents) {
        Map<String, String> missing = new TreeMap<>();
        written.forEach((key, value) -> {
            if (!value.equals(contents.get(key))) {
                missing.put(key, value + " (found " + contents.get(key) + ")");
            }
        });
        return missing;
    }

    /**
     * Writes {@code bg/0}, {@code bg/1}, ... through the cluster's client until stopped,
     * remembering the writes that were acknowledged. A write whose outcome is unknown is neither
     * expected nor forbidden; a refused one is tried again with the next key.
     */
    private static final class Writer implements AutoCloseable {
        final Map<String, String> acknowledged = new ConcurrentHashMap<>();
        private final AtomicLong failures = new AtomicLong();
        private final AtomicBoolean stopping = new AtomicBoolean();
        private final Thread thread;

        Writer(StrataClient client) {
            thread = Thread.ofPlatform().name("statefulset-it-writer").start(() -> {
                for (long n = 0; !stopping.get(); n++) {
                    String key = "bg/" + n;
                    try {
                        client.put(key, "written by the writer " + n);
                        acknowledged.put(key, "written by the writer " + n);
                    } catch (StrataException e) {
                        // Refused, or its outcome unknown (OutcomeUnknownException): not acknowledged, so not expected.
                        failures.incrementAndGet();
                    }
                    // A steady trickle, not a load test: the machine also runs five servers.
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            });
        }

        /** Waits until {@code more} writes past the ones acknowledged so far are acknowledged. */
        void awaitProgress(int more) {
            int target = acknowledged.size() + more;
            Await.until(() -> acknowledged.size() >= target, STARTUP,
                    "the writer to have " + more + " more writes acknowledged (" + failures.get() + " failed so far)");
        }

        void stop() throws InterruptedException {
            stopping.set(true);
            thread.join(Duration.ofSeconds(30));
        }

        @Override
        public void close() throws InterruptedException {
            stop();
        }
    }

    /**
     * A membership call as an operator makes it: ABORTED (the configuration was changing, as it
     * does right after another change commits on a loaded machine) is retried; {@code done} (the
     * change is already in place, e.g. after a retry of a call that had succeeded) ends it.
     */
    private static void changeMembership(Runnable call, StrataException.Code done) {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (true) {
            try {
                call.run();
                return;
            } catch (StrataException e) {
                if (e.code() == done) {
                    return;
                }
                if (e.code() != StrataException.Code.ABORTED || System.nanoTime() > deadline) {
                    throw e;
                }
                LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            }
        }
    }
}
