package dev.strata.cli;

import dev.strata.client.StrataClient;
import dev.strata.client.TlsCredentials;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * etcdctl's TLS flags: {@code --tls}, {@code --cacert}, {@code --cert}, {@code --key}. Part of
 * {@link ClientOptions}, and mixed on its own into commands that open their own connections
 * ({@code strata checkpoint save}).
 */
public final class TlsOptions {
    @Option(names = "--tls", description = "connect over TLS, trusting the JVM's certificate authorities (implied by "
            + "--cacert)")
    boolean tls;

    @Option(names = "--cacert", paramLabel = "FILE", description = "connect over TLS, trusting the CA certificates in "
            + "FILE (PEM)")
    Path caCert;

    @Option(names = "--cert", paramLabel = "FILE", description = "client certificate chain (PEM) for clusters that "
            + "require mutual TLS; needs --key")
    Path cert;

    @Option(names = "--key", paramLabel = "FILE", description = "the client certificate's private key (PEM, PKCS#8)")
    Path key;

    /** Whether any flag asks for TLS. */
    public boolean enabled() {
        return tls || caCert != null || cert != null || key != null;
    }

    /** The CA certificates to trust, or null for the JVM's. */
    public Path caCert() {
        return caCert;
    }

    /** The client certificate chain, or null. */
    public Path cert() {
        return cert;
    }

    /** The client certificate's key, or null. */
    public Path key() {
        return key;
    }

    /**
     * Sets the builder's TLS settings when a flag asks for TLS.
     *
     * @throws IllegalArgumentException when only one of --cert and --key is given, or a file cannot be used
     */
    public void applyTo(StrataClient.Builder b) {
        check();
        if (enabled()) {
            b.tls(caCert, cert, key);
        }
    }

    /**
     * The channel credentials the flags ask for: plaintext, or TLS as {@link #applyTo} sets it, for
     * commands that open channels of their own.
     *
     * @throws IllegalArgumentException when only one of --cert and --key is given, or a file cannot be used
     */
    public ChannelCredentials channelCredentials() {
        check();
        return enabled() ? TlsCredentials.of(caCert, cert, key) : InsecureChannelCredentials.create();
    }

    /**
     * Refuses a certificate without its key and a key without its certificate.
     *
     * @throws IllegalArgumentException naming the missing flag
     */
    public void check() {
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException("--cert and --key go together");
        }
    }
}
