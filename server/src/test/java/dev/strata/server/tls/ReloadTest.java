package dev.strata.server.tls;

import dev.strata.testkit.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Certificates, keys and CAs re-read from disk: each test handshakes over loopback with the
 * JDK's TLS and looks at the certificate the other side presented, so what is checked is what a
 * new connection sees, not when the files were read.
 */
class ReloadTest {
    @TempDir
    Path dir;
    private final ExecutorService acceptor = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        acceptor.shutdownNow();
    }

    /**
     * One TLS handshake with a server holding {@code serverKeys} (and, when {@code clientCas} is
     * not null, demanding a client certificate that chains to them); returns the serial of the
     * certificate the client saw.
     */
    private BigInteger handshake(KeyManager serverKeys, TrustManager clientCas, KeyManager clientKeys, TrustManager serverCas)
            throws Exception {
        SSLContext server = context(serverKeys, clientCas);
        SSLContext client = context(clientKeys, serverCas);
        try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listener.setNeedClientAuth(clientCas != null);
            Future<?> accepted = acceptor.submit(() -> {
                try (SSLSocket s = (SSLSocket) listener.accept()) {
                    s.startHandshake();
                    s.getOutputStream().write(1); // TLS 1.3: the client learns of a refused certificate on its first read
                    s.getOutputStream().flush();
                }
                return null;
            });
            try (SSLSocket s = (SSLSocket) client.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                    listener.getLocalPort())) {
                s.startHandshake();
                if (s.getInputStream().read() != 1) {
                    throw new IOException("the server closed the connection");
                }
                X509Certificate seen = (X509Certificate) s.getSession().getPeerCertificates()[0];
                accepted.get(10, TimeUnit.SECONDS);
                return seen.getSerialNumber();
            } finally {
                accepted.cancel(true);
            }
        }
    }

    private static SSLContext context(KeyManager keys, TrustManager trust) throws GeneralSecurityException {
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(keys == null ? null : new KeyManager[] {keys}, trust == null ? null : new TrustManager[] {trust}, null);
        return c;
    }

    private static ReloadingKeyManager keys(TestCertificates.Issued issued) {
        return new ReloadingKeyManager("the test port", issued.certificate(), "cert", issued.privateKey(), "key");
    }

    private static ReloadingTrustManager trust(Path caFile) {
        return new ReloadingTrustManager("the test port", caFile, "ca");
    }

    @Test
    void aRotatedCertificateIsServedToTheNextConnection() throws Exception {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        TestCertificates.Issued first = ca.issue("node1");
        ReloadingKeyManager serverKeys = keys(first);
        ReloadingTrustManager clientTrust = trust(ca.caFile());
        assertThat(handshake(serverKeys, null, null, clientTrust)).isEqualTo(first.serial());

        TestCertificates.Issued second = ca.issue("node1"); // the same files, a new certificate and key
        assertThat(second.certificate()).isEqualTo(first.certificate());
        assertThat(handshake(serverKeys, null, null, clientTrust)).isEqualTo(second.serial());
        assertThat(serverKeys.current().leaf().getSerialNumber()).isEqualTo(second.serial());
    }

    @Test
    void aHalfDoneRotationKeepsServingTheLastGoodPairUntilTheKeyArrives() throws Exception {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        TestCertificates.Issued served = ca.issue("node1");
        TestCertificates.Issued next = ca.issue("next");
        ReloadingKeyManager serverKeys = keys(served);
        ReloadingTrustManager clientTrust = trust(ca.caFile());

        Files.copy(next.certificate(), served.certificate(), StandardCopyOption.REPLACE_EXISTING);
        assertThat(handshake(serverKeys, null, null, clientTrust)).as("the new certificate with the old key").isEqualTo(served.serial());
        Files.writeString(served.privateKey(), "truncated");
        assertThat(handshake(serverKeys, null, null, clientTrust)).as("a key that does not parse").isEqualTo(served.serial());

        Files.copy(next.privateKey(), served.privateKey(), StandardCopyOption.REPLACE_EXISTING);
        assertThat(handshake(serverKeys, null, null, clientTrust)).isEqualTo(next.serial());
    }

    @Test
    void aDeletedCertificateKeepsTheLastGoodPairServed() throws Exception {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        TestCertificates.Issued served = ca.issue("node1");
        ReloadingKeyManager serverKeys = keys(served);
        Files.delete(served.certificate());
        assertThat(handshake(serverKeys, null, null, trust(ca.caFile()))).isEqualTo(served.serial());
    }

    @Test
    void aNewCaInTheTrustedFileAdmitsItsClientsFromTheNextConnection() throws Exception {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        TestCertificates newCa = new TestCertificates(dir, "new");
        TestCertificates.Issued server = ca.issue("node1");
        TestCertificates.Issued client = newCa.issue("app");
        Path trusted = dir.resolve("trusted.pem");
        Files.copy(ca.caFile(), trusted);
        ReloadingTrustManager clientCas = trust(trusted);
        ReloadingKeyManager serverKeys = keys(server);
        ReloadingKeyManager clientKeys = keys(client);
        ReloadingTrustManager serverCas = trust(ca.caFile());

        assertThatThrownBy(() -> handshake(serverKeys, clientCas, clientKeys, serverCas))
                .as("a client certificate from a CA the server does not trust yet").isInstanceOf(IOException.class);

        Files.writeString(trusted, Files.readString(ca.caFile()) + Files.readString(newCa.caFile()));
        assertThat(handshake(serverKeys, clientCas, clientKeys, serverCas)).isEqualTo(server.serial());
    }
}
