package dev.strata.client;

import dev.strata.testkit.SecretServer;
import dev.strata.testkit.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
    private SecretServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private String start(TestCertificates.Issued certificate, Path clientCa) throws IOException {
        server = new SecretServer(certificate, clientCa);
        return server.endpoint();
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
    void missingOrHalfGivenFilesAreRefusedWhenTheClientIsBuilt() {
        assertThatThrownBy(() -> client("127.0.0.1:1").tls(dir.resolve("nope.pem")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope.pem");
        assertThatThrownBy(() -> client("127.0.0.1:1").tls(null, dir.resolve("cert.pem"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs its private key");
    }
}
