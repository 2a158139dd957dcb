package dev.strata.server.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The strata.tls.* keys: plaintext by default, pairs that go together, settings that need others. */
class TlsConfigTest {
    private static final Map<String, String> CLIENT = Map.of("strata.tls.cert-file", "node.pem", "strata.tls.key-file", "node-key.pem");
    private static final Map<String, String> PEER = Map.of("strata.tls.peer-cert-file", "peer.pem",
            "strata.tls.peer-key-file", "peer-key.pem", "strata.tls.peer-trusted-ca-file", "peer-ca.pem");

    private static TlsConfig tls(Map<String, String> a, Map<String, String> b) {
        Map<String, String> all = new HashMap<>(a);
        all.putAll(b);
        return ServerConfig.resolve(all).tls();
    }

    private static TlsConfig tls(Map<String, String> given) {
        return tls(given, Map.of());
    }

    @Test
    void bothPortsArePlaintextByDefault() {
        TlsConfig t = ServerConfig.resolve(Map.of()).tls();
        assertThat(t).isEqualTo(TlsConfig.PLAINTEXT);
        assertThat(t.client()).isNull();
        assertThat(t.peer()).isNull();
        assertThat(t).hasToString("client plaintext, peer plaintext");
    }

    @Test
    void aCertificateAndKeyTurnOnTlsForClientsWithoutDemandingTheirCertificates() {
        TlsConfig t = tls(CLIENT);
        assertThat(t.client()).isEqualTo(new TlsConfig.PortTls(Path.of("node.pem"), Path.of("node-key.pem"), null, false));
        assertThat(t.peer()).isNull();
    }

    @Test
    void clientCertAuthDemandsCertificatesFromTheTrustedCa() {
        TlsConfig t = tls(CLIENT, Map.of("strata.tls.client-cert-auth", "true", "strata.tls.trusted-ca-file", "ca.pem"));
        assertThat(t.client().requireClientCerts()).isTrue();
        assertThat(t.client().trustedCaFile()).isEqualTo(Path.of("ca.pem"));
        assertThat(t).hasToString("client mutual TLS, peer plaintext");
    }

    @Test
    void tlsBetweenPeersIsAlwaysMutual() {
        TlsConfig t = tls(PEER);
        assertThat(t.peer()).isEqualTo(new TlsConfig.PortTls(Path.of("peer.pem"), Path.of("peer-key.pem"), Path.of("peer-ca.pem"), true));
        assertThat(t.client()).isNull();
    }

    @Test
    void aCertificateWithoutItsKeyOrAKeyWithoutItsCertificateIsRefused() {
        assertThatThrownBy(() -> tls(Map.of("strata.tls.cert-file", "node.pem")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strata.tls.cert-file and strata.tls.key-file go together: set both for TLS on the client port, "
                        + "or neither (strata.tls.cert-file is set alone)");
        assertThatThrownBy(() -> tls(Map.of("strata.tls.peer-key-file", "k.pem", "strata.tls.peer-trusted-ca-file", "ca.pem")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strata.tls.peer-key-file is set alone");
    }

    @Test
    void clientCertAuthNeedsTlsAndATrustedCa() {
        assertThatThrownBy(() -> tls(Map.of("strata.tls.client-cert-auth", "true")))
                .hasMessage("strata.tls.client-cert-auth needs TLS on the client port: set strata.tls.cert-file and strata.tls.key-file");
        assertThatThrownBy(() -> tls(CLIENT, Map.of("strata.tls.client-cert-auth", "true")))
                .hasMessage("strata.tls.client-cert-auth needs strata.tls.trusted-ca-file, the CA certificates client "
                        + "certificates must chain to");
        assertThatThrownBy(() -> tls(CLIENT, Map.of("strata.tls.client-cert-auth", "maybe")))
                .hasMessageContaining("strata.tls.client-cert-auth must be true or false");
    }

    @Test
    void peerTlsNeedsThePeerCa() {
        assertThatThrownBy(() -> tls(Map.of("strata.tls.peer-cert-file", "p.pem", "strata.tls.peer-key-file", "k.pem")))
                .hasMessage("TLS between nodes is mutual: set strata.tls.peer-trusted-ca-file, the CA certificates every "
                        + "peer's certificate must chain to");
    }

    @Test
    void aCaForAPortThatServesPlaintextIsAMistake() {
        assertThatThrownBy(() -> tls(Map.of("strata.tls.trusted-ca-file", "ca.pem")))
                .hasMessageStartingWith("strata.tls.trusted-ca-file is set but the client port serves plaintext");
        assertThatThrownBy(() -> tls(Map.of("strata.tls.peer-trusted-ca-file", "ca.pem")))
                .hasMessageStartingWith("strata.tls.peer-trusted-ca-file is set but the Raft port serves plaintext");
    }
}
