package dev.strata.client;

import io.grpc.ChannelCredentials;
import io.grpc.TlsChannelCredentials;

import java.io.IOException;
import java.nio.file.Path;

/**
 * gRPC channel credentials from PEM files, as the SDK's {@link StrataClient.Builder#tls(Path, Path, Path)}
 * builds them; public for tools that open channels of their own (the command line's backups).
 */
public final class TlsCredentials {
    private TlsCredentials() {}

    /**
     * TLS trusting the certificate authorities in {@code caCertificates} (the JVM's when null), and
     * presenting {@code certificateChain} with its {@code privateKey} (PKCS#8) when they are given.
     *
     * @throws IllegalArgumentException when a file cannot be read, or only one of the certificate
     *                                  and the key is given
     */
    public static ChannelCredentials of(Path caCertificates, Path certificateChain, Path privateKey) {
        if ((certificateChain == null) != (privateKey == null)) {
            throw new IllegalArgumentException("a client certificate needs its private key, and a key its certificate");
        }
        TlsChannelCredentials.Builder tls = TlsChannelCredentials.newBuilder();
        try {
            if (caCertificates != null) {
                tls.trustManager(caCertificates.toFile());
            }
            if (certificateChain != null) {
                tls.keyManager(certificateChain.toFile(), privateKey.toFile());
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot use the TLS files " + caCertificates + ", " + certificateChain
                    + ", " + privateKey + ": " + e.getMessage(), e);
        }
        return tls.build();
    }
}
