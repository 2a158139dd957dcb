package dev.strata.server.config;

import java.nio.file.Path;
import java.util.Map;

import static dev.strata.server.config.ConfigKeys.*;

/**
 * Which of a node's two ports serve TLS, and with which files: the {@code strata.tls.*} keys,
 * checked for consistency (the files themselves are read and checked when the server starts).
 * Plaintext is the default; TLS on the Raft port is always mutual.
 *
 * @param client the client port's settings, or null when it serves plaintext
 * @param peer   the Raft port's settings, or null when it serves plaintext
 */
public record TlsConfig(PortTls client, PortTls peer) {
    /** Both ports in plaintext. */
    public static final TlsConfig PLAINTEXT = new TlsConfig(null, null);

    /**
     * One port's TLS files.
     *
     * @param certFile           the certificate chain the port presents (PEM)
     * @param keyFile            its private key (PEM, PKCS#8)
     * @param trustedCaFile      the CAs the other side's certificate must chain to (PEM), or null
     *                           for the JVM's (client port only)
     * @param requireClientCerts whether a connecting party must present a certificate
     */
    public record PortTls(Path certFile, Path keyFile, Path trustedCaFile, boolean requireClientCerts) {}

    /**
     * Reads the TLS keys from resolved values (every key present, defaults filled in).
     *
     * @throws IllegalArgumentException for a half-given pair or a setting that needs another, naming the keys
     */
    static TlsConfig resolve(Map<String, String> v) {
        String cert = v.get(CERT_FILE.name()).trim();
        String key = v.get(KEY_FILE.name()).trim();
        String ca = v.get(TRUSTED_CA_FILE.name()).trim();
        boolean clientCertAuth = Values.bool(CLIENT_CERT_AUTH.name(), v.get(CLIENT_CERT_AUTH.name()));
        pair(CERT_FILE, cert, KEY_FILE, key, "the client port");
        PortTls client = null;
        if (cert.isEmpty()) {
            if (clientCertAuth) {
                throw new IllegalArgumentException(CLIENT_CERT_AUTH.name() + " needs TLS on the client port: set "
                        + CERT_FILE.name() + " and " + KEY_FILE.name());
            }
            if (!ca.isEmpty()) {
                throw new IllegalArgumentException(TRUSTED_CA_FILE.name() + " is set but the client port serves plaintext: set "
                        + CERT_FILE.name() + " and " + KEY_FILE.name() + ", or drop it");
            }
        } else {
            if (clientCertAuth && ca.isEmpty()) {
                throw new IllegalArgumentException(CLIENT_CERT_AUTH.name() + " needs " + TRUSTED_CA_FILE.name()
                        + ", the CA certificates client certificates must chain to");
            }
            client = new PortTls(Path.of(cert), Path.of(key), ca.isEmpty() ? null : Path.of(ca), clientCertAuth);
        }

        String peerCert = v.get(PEER_CERT_FILE.name()).trim();
        String peerKey = v.get(PEER_KEY_FILE.name()).trim();
        String peerCa = v.get(PEER_TRUSTED_CA_FILE.name()).trim();
        pair(PEER_CERT_FILE, peerCert, PEER_KEY_FILE, peerKey, "the Raft port");
        PortTls peer = null;
        if (peerCert.isEmpty()) {
            if (!peerCa.isEmpty()) {
                throw new IllegalArgumentException(PEER_TRUSTED_CA_FILE.name() + " is set but the Raft port serves plaintext: set "
                        + PEER_CERT_FILE.name() + " and " + PEER_KEY_FILE.name() + ", or drop it");
            }
        } else {
            if (peerCa.isEmpty()) {
                throw new IllegalArgumentException("TLS between nodes is mutual: set " + PEER_TRUSTED_CA_FILE.name()
                        + ", the CA certificates every peer's certificate must chain to");
            }
            peer = new PortTls(Path.of(peerCert), Path.of(peerKey), Path.of(peerCa), true);
        }
        return new TlsConfig(client, peer);
    }

    private static void pair(ConfigKey certKey, String cert, ConfigKey keyKey, String key, String port) {
        if (cert.isEmpty() != key.isEmpty()) {
            throw new IllegalArgumentException(certKey.name() + " and " + keyKey.name() + " go together: set both for TLS on "
                    + port + ", or neither (" + (cert.isEmpty() ? keyKey : certKey).name() + " is set alone)");
        }
    }

    @Override
    public String toString() {
        return "client " + (client == null ? "plaintext" : client.requireClientCerts() ? "mutual TLS" : "TLS")
                + ", peer " + (peer == null ? "plaintext" : "mutual TLS");
    }
}
