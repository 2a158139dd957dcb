package dev.strata.it;

import dev.strata.cli.ExitCode;
import dev.strata.cli.StrataCli;
import dev.strata.cli.StrataCommand;
import dev.strata.client.StrataClient;
import dev.strata.client.StrataException;
import dev.strata.proto.v1.CheckpointRequest;
import dev.strata.proto.v1.CheckpointStatus;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.proto.v1.Member;
import dev.strata.proto.v1.MemberAddRequest;
import dev.strata.proto.v1.MemberListRequest;
import dev.strata.testkit.Await;
import dev.strata.testkit.TestCertificates;
import dev.strata.testkit.cluster.InProcessCluster;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static dev.strata.it.Kv.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A three-node cluster with TLS on both ports, certificates issued in the test by three CAs:
 * one for the client port (servers and clients; client certificates required), one for the
 * Raft port (peers), and a rogue one. Clients need the CA, and a certificate; peers need a
 * certificate from the peer CA, or they cannot join; certificates rotated on disk are served to
 * the next connection. Checkpoints are taken every 50 entries so a new member catches up from
 * one, fetched over the client port's mutual TLS.
 */
class TlsIT {
    @TempDir
    static Path dir;
    private static TestCertificates clientCa;
    private static TestCertificates peerCa;
    private static TestCertificates rogueCa;
    private static TestCertificates.Issued app;
    /** Per node: its client-port and Raft-port certificates. */
    private static final Map<Long, TestCertificates.Issued> clientCerts = new ConcurrentHashMap<>();
    private static final Map<Long, TestCertificates.Issued> peerCerts = new ConcurrentHashMap<>();
    private static InProcessCluster cluster;
    private static String endpoints;

    /** Node 4 is the impostor: its Raft certificate comes from the rogue CA. */
    private static final long ROGUE = 4;

    @BeforeAll
    static void startCluster() throws IOException {
        clientCa = new TestCertificates(dir, "client");
        peerCa = new TestCertificates(dir, "peer");
        rogueCa = new TestCertificates(dir, "rogue");
        app = clientCa.issue("app");
        for (long id = 1; id <= 5; id++) {
            clientCerts.put(id, clientCa.issue("node" + id));
            peerCerts.put(id, (id == ROGUE ? rogueCa : peerCa).issue("node" + id));
        }
        cluster = InProcessCluster.start(dir, 3, Map.of("strata.raft.snapshot.threshold-entries", "50",
                        "strata.raft.log.segment-size", "16KiB"), TlsIT::tlsConfig,
                TlsChannelCredentials.newBuilder().trustManager(clientCa.caFile().toFile())
                        .keyManager(app.certificate().toFile(), app.privateKey().toFile()).build());
        endpoints = LongStream.rangeClosed(1, 3).mapToObj(id -> cluster.node(id).clientAddress()).collect(Collectors.joining(","));
        // The tests read linearizably through followers. Right after a start a follower's link to
        // the leader may still be connecting, and its first ReadIndex then fails with UNAVAILABLE
        // (which clients retry): start once every node has served one.
        for (long id = 1; id <= 3; id++) {
            KVGrpc.KVBlockingStub kv = cluster.kv(id);
            Await.until(() -> servesALinearizableRead(kv), InProcessCluster.STARTUP, "node " + id + " to serve a linearizable read");
        }
    }

    private static boolean servesALinearizableRead(KVGrpc.KVBlockingStub kv) {
        try {
            Kv.get(kv, "tls/started");
            return true;
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != Status.Code.UNAVAILABLE) {
                throw e;
            }
            return false;
        }
    }

    private static Map<String, String> tlsConfig(long id) {
        Map<String, String> c = new HashMap<>(Map.of(
                "strata.tls.cert-file", clientCerts.get(id).certificate().toString(),
                "strata.tls.key-file", clientCerts.get(id).privateKey().toString(),
                "strata.tls.trusted-ca-file", clientCa.caFile().toString(),
                "strata.tls.client-cert-auth", "true",
                "strata.tls.peer-cert-file", peerCerts.get(id).certificate().toString(),
                "strata.tls.peer-key-file", peerCerts.get(id).privateKey().toString(),
                "strata.tls.peer-trusted-ca-file", peerCa.caFile().toString()));
        if (id == ROGUE) {
            // Told of no member, the impostor starts and waits to be added. Told of the members,
            // it could not ask them (no handshake) whether they list it, and would wait unstarted.
            c.put("strata.cluster.peers", "");
        }
        return c;
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static StrataClient.Builder sdk() {
        return StrataClient.builder().endpoints(endpoints.split(",")).timeout(Duration.ofSeconds(30));
    }

    @Test
    void aClientWithTheCaAndACertificateIsServedAndOthersAreRefused() {
        try (StrataClient c = sdk().tls(clientCa.caFile(), app.certificate(), app.privateKey()).build()) {
            c.put("tls/sdk", "secret");
            assertThat(c.get("tls/sdk").orElseThrow().valueUtf8()).isEqualTo("secret");
        }
        // Each refusal says what went wrong, not only gRPC's "io exception".
        try (StrataClient plaintext = sdk().build()) {
            StrataException e = catchStrata(() -> plaintext.get("tls/sdk"));
            assertThat(e.code()).isEqualTo(StrataException.Code.UNAVAILABLE);
            assertThat(e).hasMessageContaining("connect over TLS");
        }
        try (StrataClient otherCa = sdk().tls(rogueCa.caFile(), app.certificate(), app.privateKey()).build()) {
            StrataException e = catchStrata(() -> otherCa.get("tls/sdk"));
            assertThat(e.code()).isEqualTo(StrataException.Code.UNAVAILABLE);
            assertThat(e).as("the node's certificate is not from the CA this client trusts")
                    .hasMessageContaining("TLS handshake failed").hasMessageContaining("certification path");
        }
        try (StrataClient anonymous = sdk().tls(clientCa.caFile()).build()) {
            StrataException e = catchStrata(() -> anonymous.get("tls/sdk"));
            assertThat(e.code()).isEqualTo(StrataException.Code.UNAVAILABLE);
            assertThat(e.getMessage()).as("no client certificate").contains("TLS handshake failed")
                    .containsIgnoringCase("certificate_required");
        }
        TestCertificates.Issued stranger = rogueCa.issue("app");
        try (StrataClient c = sdk().tls(clientCa.caFile(), stranger.certificate(), stranger.privateKey()).build()) {
            assertThat(catchStrata(() -> c.get("tls/sdk")).code()).as("a client certificate from another CA")
                    .isEqualTo(StrataException.Code.UNAVAILABLE);
        }
    }

    private static StrataException catchStrata(Runnable r) {
        try {
            r.run();
        } catch (StrataException e) {
            return e;
        }
        throw new AssertionError("the call succeeded");
    }

    /** What one run of the command line did. */
    private record Run(int code, String out, String err) {}

    private static Run strata(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--endpoints=" + endpoints);
        int code = StrataCommand.commandLine(new ByteArrayInputStream(new byte[0]), false)
                .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void theCommandLineConnectsWithCacertCertAndKey() {
        String[] tls = {"--cacert=" + clientCa.caFile(), "--cert=" + app.certificate(), "--key=" + app.privateKey()};
        // A generous timeout: the point is TLS, and a loaded machine can take seconds per call.
        assertThat(strata(join(new String[] {"put", "tls/cli", "hello", "--timeout=30s"}, tls))).isEqualTo(new Run(0, "OK\n", ""));
        assertThat(strata(join(new String[] {"get", "tls/cli", "--print-value-only", "--timeout=30s"}, tls)))
                .isEqualTo(new Run(0, "hello\n", ""));
        Run plaintext = strata("get", "tls/cli", "--timeout=30s");
        assertThat(plaintext.code()).isEqualTo(ExitCode.FAILED);
        assertThat(plaintext.err()).contains("UNAVAILABLE").contains("connect over TLS");

        Path backup = dir.resolve("backup");
        assertThat(StrataCli.run(join(new String[] {"checkpoint", "save", backup.toString(), "--endpoints=" + endpoints}, tls)))
                .isZero();
        assertThat(StrataCli.run("checkpoint", "save", dir.resolve("backup-plaintext").toString(), "--endpoints=" + endpoints))
                .as("a backup over plaintext").isEqualTo(1);
    }

    private static String[] join(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void rotatedCertificatesAreServedToTheNextConnection() {
        InProcessCluster.Node one = cluster.node(1);
        assertThat(TlsProbe.connect(one.clientPort(), clientCa.caFile(), app).served().getSerialNumber())
                .isEqualTo(clientCerts.get(1L).serial());
        TestCertificates.Issued rotated = clientCa.issue("node1"); // over the files node 1 was started with
        clientCerts.put(1L, rotated);
        TlsProbe.Outcome after = TlsProbe.connect(one.clientPort(), clientCa.caFile(), app);
        assertThat(after.served().getSerialNumber()).isEqualTo(rotated.serial());
        assertThat(after.admitted()).isTrue();

        TestCertificates.Issued peer = peerCerts.get(2L);
        assertThat(TlsProbe.connect(one.raftPort(), peerCa.caFile(), peer).served().getSerialNumber())
                .isEqualTo(peerCerts.get(1L).serial());
        TestCertificates.Issued rotatedPeer = peerCa.issue("node1");
        peerCerts.put(1L, rotatedPeer);
        assertThat(TlsProbe.connect(one.raftPort(), peerCa.caFile(), peer).served().getSerialNumber())
                .isEqualTo(rotatedPeer.serial());

        // The cluster goes on, node 1 with its new certificates.
        put(cluster.kv(1), "tls/after-rotation", "v");
        assertThat(Kv.get(cluster.kv(1), "tls/after-rotation").getValue()).isEqualTo(Kv.b("v"));
    }

    @Test
    void theRaftPortAdmitsOnlyPeersWithACertificateFromThePeerCa() {
        int raftPort = cluster.node(2).raftPort();
        TlsProbe.Outcome peer = TlsProbe.connect(raftPort, peerCa.caFile(), peerCerts.get(3L));
        assertThat(peer.admitted()).as(String.valueOf(peer.failure())).isTrue();
        TlsProbe.Outcome none = TlsProbe.connect(raftPort, peerCa.caFile(), null);
        assertThat(none.admitted()).as("no certificate").isFalse();
        TlsProbe.Outcome rogue = TlsProbe.connect(raftPort, peerCa.caFile(), peerCerts.get(ROGUE));
        assertThat(rogue.admitted()).as("a certificate from another CA").isFalse();
        TlsProbe.Outcome clientCert = TlsProbe.connect(raftPort, peerCa.caFile(), clientCerts.get(3L));
        assertThat(clientCert.admitted()).as("a client-port certificate is no peer certificate").isFalse();
    }

    /** {@code count} values of 1 KiB, so the 16 KiB log segments fill and can be purged. */
    private static void write(String prefix, int count, Map<String, String> expected) {
        long leader = cluster.awaitLeader();
        for (int i = 0; i < count; i++) {
            String v = (prefix + i + "/").repeat(1024).substring(0, 1024);
            put(cluster.kv(leader), prefix + i, v);
            expected.put(prefix + i, v);
        }
    }

    @Test
    void aPeerWithoutAValidCertificateCannotJoinAndOneWithItCatchesUp() {
        Map<String, String> expected = new TreeMap<>();
        write("tls/join/", 100, expected);
        // Purge the log past its start, so a new member can catch up only from a checkpoint.
        Await.until(() -> {
            for (long id : cluster.runningIds()) {
                cluster.cluster(id).checkpoint(CheckpointRequest.getDefaultInstance());
            }
            write("tls/filler/", 20, expected);
            return cluster.status(cluster.awaitLeader()).getLogStartIndex() > 2;
        }, InProcessCluster.STARTUP, "the leader to purge the start of its log");

        // The impostor: the leader cannot complete a handshake with it (its certificate does not
        // chain to the peer CA), so the configuration change never gets past staging.
        InProcessCluster.Node rogue = cluster.startJoiningNode(ROGUE);
        assertThatThrownBy(() -> cluster.cluster(cluster.awaitLeader()).memberAdd(MemberAddRequest.newBuilder().setId(ROGUE)
                .setRaftAddress(rogue.raftAddress()).setClientAddress(rogue.clientAddress()).build()))
                .isInstanceOf(StatusRuntimeException.class);
        assertThat(cluster.cluster(1).memberList(MemberListRequest.getDefaultInstance()).getMembersList())
                .extracting(Member::getId).containsExactly(1L, 2L, 3L);
        // The cluster goes on serving, and the impostor has received nothing.
        put(cluster.kv(2), "tls/join/during", "v");
        expected.put("tls/join/during", "v");
        assertThat(Kv.get(cluster.kv(3), "tls/join/during").getValue()).isEqualTo(Kv.b("v"));
        assertThat(cluster.status(ROGUE).getAppliedIndex()).as("nothing applied").isNotPositive();
        assertThat(cluster.localContents(ROGUE)).isEmpty();

        InProcessCluster.Node five = cluster.startJoiningNode(5);
        // The leader may still be staging the impostor until its own timeout: ABORTED then, retried as an operator would.
        Await.until(() -> {
            try {
                cluster.cluster(cluster.awaitLeader()).memberAdd(MemberAddRequest.newBuilder().setId(5)
                        .setRaftAddress(five.raftAddress()).setClientAddress(five.clientAddress()).build());
                return true;
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.ALREADY_EXISTS) {
                    return true; // an earlier attempt went through after all
                }
                if (e.getStatus().getCode() != Status.Code.ABORTED) {
                    throw e;
                }
                return false;
            }
        }, InProcessCluster.STARTUP, "node 5 to be added once the impostor's staging ends");
        cluster.awaitCaughtUp(5);
        CheckpointStatus c = cluster.status(5).getCheckpoints();
        assertThat(c.getFullInstalls()).as("caught up from a checkpoint fetched over TLS").isEqualTo(1);
        assertThat(cluster.localContents(5)).containsAllEntriesOf(expected);
        assertThat(cluster.status(ROGUE).getAppliedIndex()).as("still nothing").isNotPositive();
        assertThat(cluster.localContents(ROGUE)).isEmpty();
    }
}
