package dev.strata.client;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.KVGrpc;
import dev.strata.client.cli.ExitCode;
import dev.strata.client.cli.StrataCommand;
import dev.strata.client.testing.TestCertificates;
import io.grpc.Grpc;
import io.grpc.Server;
import io.grpc.TlsServerCredentials;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SDK's TLS settings against a TLS server: the client trusts only the CA it is given, and
 * presents its certificate when the server asks for one.
 */
class TlsTest {
    @TempDir
    Path dir;
    private Server server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.shutdownNow();
        }
    }

    /** A server that answers every Get with the value "secret", over TLS with {@code certificate}. */
    private String start(TestCertificates.Issued certificate, Path clientCa) throws IOException {
        TlsServerCredentials.Builder tls = TlsServerCredentials.newBuilder()
                .keyManager(certificate.certificate().toFile(), certificate.privateKey().toFile());
        if (clientCa != null) {
            tls.trustManager(clientCa.toFile()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
        }
        server = Grpc.newServerBuilderForPort(0, tls.build())
                .addService(new KVGrpc.KVImplBase() {
                    @Override
                    public void get(GetRequest request, StreamObserver<GetResponse> response) {
                        response.onNext(GetResponse.newBuilder().setKv(dev.strata.proto.v1.KeyValue.newBuilder()
                                .setKey(request.getKey()).setValue(ByteString.copyFromUtf8("secret")).setVersion(1)).build());
                        response.onCompleted();
                    }
                })
                .build()
                .start();
        return "127.0.0.1:" + server.getPort();
    }

    private static StrataClient.Builder client(String endpoint) {
        return StrataClient.builder().endpoints(endpoint).timeout(Duration.ofSeconds(10));
    }

    @Test
    void aClientTrustingTheServersCaConnectsAndOthersAreRefused() throws IOException {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        String endpoint = start(ca.issue("node1"), null);

        try (StrataClient c = client(endpoint).tls(ca.caFile()).build()) {
            assertThat(c.get("k").orElseThrow().valueUtf8()).isEqualTo("secret");
        }
        try (StrataClient plaintext = client(endpoint).build()) {
            assertThatThrownBy(() -> plaintext.get("k")).isInstanceOf(StrataException.class)
                    .hasMessageContaining("connect over TLS");
        }
        TestCertificates other = new TestCertificates(dir, "other");
        try (StrataClient wrongCa = client(endpoint).tls(other.caFile()).build()) {
            assertThatThrownBy(() -> wrongCa.get("k")).isInstanceOf(StrataException.class)
                    .satisfies(e -> assertThat(((StrataException) e).code()).isEqualTo(StrataException.Code.UNAVAILABLE))
                    .hasMessageContaining("TLS handshake failed");
        }
    }

    @Test
    void aServerThatRequiresClientCertificatesServesOnlyClientsThatShowOne() throws IOException {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        String endpoint = start(ca.issue("node1"), ca.caFile());

        TestCertificates.Issued app = ca.issue("app");
        try (StrataClient c = client(endpoint).tls(ca.caFile(), app.certificate(), app.privateKey()).build()) {
            assertThat(c.get("k").orElseThrow().valueUtf8()).isEqualTo("secret");
        }
        try (StrataClient anonymous = client(endpoint).tls(ca.caFile()).build()) {
            assertThatThrownBy(() -> anonymous.get("k")).isInstanceOf(StrataException.class);
        }
        TestCertificates.Issued stranger = new TestCertificates(dir, "other").issue("app");
        try (StrataClient c = client(endpoint).tls(ca.caFile(), stranger.certificate(), stranger.privateKey()).build()) {
            assertThatThrownBy(() -> c.get("k")).as("a certificate from another CA").isInstanceOf(StrataException.class);
        }
    }

    @Test
    void theCommandLineTakesEtcdctlsTlsFlags() throws IOException {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        String endpoint = start(ca.issue("node1"), ca.caFile());
        TestCertificates.Issued app = ca.issue("app");

        StringWriter out = new StringWriter();
        int code = StrataCommand.commandLine(InputStream.nullInputStream(), false).setOut(new PrintWriter(out, true))
                .execute("get", "k", "--print-value-only", "--endpoints=" + endpoint, "--cacert=" + ca.caFile(),
                        "--cert=" + app.certificate(), "--key=" + app.privateKey());
        assertThat(code).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).isEqualTo("secret\n");

        assertThat(cli("get", "k", "--endpoints=" + endpoint, "--timeout=1s")).as("plaintext").isEqualTo(ExitCode.FAILED);
        assertThat(cli("get", "k", "--endpoints=" + endpoint, "--cacert=" + ca.caFile(), "--cert=" + app.certificate()))
                .as("a certificate without its key").isEqualTo(ExitCode.USAGE);
    }

    private static int cli(String... args) {
        return StrataCommand.commandLine(InputStream.nullInputStream(), false)
                .setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(new StringWriter())).execute(args);
    }

    @Test
    void missingOrHalfGivenFilesAreRefusedWhenTheClientIsBuilt() {
        assertThatThrownBy(() -> client("127.0.0.1:1").tls(dir.resolve("nope.pem")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope.pem");
        assertThatThrownBy(() -> client("127.0.0.1:1").tls(null, dir.resolve("cert.pem"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs its private key");
    }
}
