package dev.strata.it;

import dev.strata.testkit.TestCertificates;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Connects to a node's port as a gRPC client would (TLS with ALPN h2, then the HTTP/2 client
 * preface) and reports what happened: the certificate the node presented, and whether it
 * admitted this client, which is known once it answers the preface with its own SETTINGS frame.
 * A node that refuses the client's certificate (or its lack of one) ends the connection instead;
 * under TLS 1.3 that shows only after the client's side of the handshake is done. The probe
 * presents its certificate even when the node asks for one from other CAs (a JDK client would
 * send none), so a node's own check of a foreign certificate is what is tested.
 */
final class TlsProbe {
    /** The HTTP/2 client preface and an empty SETTINGS frame. */
    private static final byte[] PREFACE = concat("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
            new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});

    /**
     * What one connection saw.
     *
     * @param served   the certificate the node presented, or null when the handshake failed before it was checked
     * @param admitted whether the node went on to talk HTTP/2
     * @param failure  why not, or null
     */
    record Outcome(X509Certificate served, boolean admitted, String failure) {}

    private TlsProbe() {}

    /** Connects to 127.0.0.1:{@code port}, trusting {@code trustedCa}, presenting {@code certificate} (or none when null). */
    static Outcome connect(int port, Path trustedCa, TestCertificates.Issued certificate) {
        X509Certificate served = null;
        try (SSLSocket s = (SSLSocket) context(trustedCa, certificate).getSocketFactory().createSocket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            SSLParameters p = s.getSSLParameters();
            p.setApplicationProtocols(new String[] {"h2"});
            p.setEndpointIdentificationAlgorithm("HTTPS");
            s.setSSLParameters(p);
            s.startHandshake();
            served = (X509Certificate) s.getSession().getPeerCertificates()[0];
            OutputStream out = s.getOutputStream();
            out.write(PREFACE);
            out.flush();
            InputStream in = s.getInputStream();
            return in.read() >= 0 ? new Outcome(served, true, null) : new Outcome(served, false, "the node closed the connection");
        } catch (IOException e) {
            return new Outcome(served, false, e.toString());
        }
    }

    private static SSLContext context(Path trustedCa, TestCertificates.Issued certificate) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", read(trustedCa)[0]);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
            tmf.init(trust);
            KeyManager[] keyManagers = null;
            if (certificate != null) {
                char[] password = "probe".toCharArray();
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("me", key(certificate.privateKey()), password, read(certificate.certificate()));
                KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
                kmf.init(keys, password);
                keyManagers = new KeyManager[] {new AnyIssuer((X509ExtendedKeyManager) kmf.getKeyManagers()[0])};
            }
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(keyManagers, tmf.getTrustManagers(), null);
            return c;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Certificate[] read(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return CertificateFactory.getInstance("X.509").generateCertificates(in).toArray(Certificate[]::new);
        }
    }

    private static PrivateKey key(Path pem) throws GeneralSecurityException {
        try {
            String text = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "");
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(text)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Offers the client certificate whichever CAs the server names as acceptable. */
    private static final class AnyIssuer extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager delegate;

        AnyIssuer(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return delegate.getClientAliases(keyType, null);
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseClientAlias(keyType, null, socket);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return delegate.chooseEngineClientAlias(keyType, null, engine);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return delegate.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return delegate.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return delegate.getPrivateKey(alias);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
