package dev.strata.server.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A trust manager trusting the CA certificates in a PEM file, re-read when it changes (see
 * {@link ReloadingFiles}). Path building, and the host name check when the handshake asks for
 * one, are the JDK's ({@code PKIX}), so wrapping changes nothing but where the CAs come from.
 * To move to a new CA, list the old and the new one in the file until every certificate is
 * reissued. Thread-safe.
 */
final class ReloadingTrustManager extends X509ExtendedTrustManager {
    /** One load: the CAs and a JDK trust manager over them. */
    private record Loaded(List<X509Certificate> cas, X509ExtendedTrustManager delegate) {}

    private final ReloadingFiles<Loaded> files;

    /**
     * Loads the CA certificates now.
     *
     * @param what the port, for logs ("the Raft port")
     * @throws IllegalArgumentException naming the setting and file when it does not load
     */
    ReloadingTrustManager(String what, Path caFile, String setting) {
        this.files = new ReloadingFiles<>(what + "'s trusted CAs (" + setting + ")", List.of(caFile),
                () -> load(Pem.certificates(caFile, setting), caFile, setting),
                l -> l.cas().size() + " CA certificate(s), first " + l.cas().get(0).getSubjectX500Principal().getName());
    }

    private static Loaded load(List<X509Certificate> cas, Path file, String setting) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca-" + i, cas.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(store);
            return new Loaded(List.copyOf(cas), (X509ExtendedTrustManager) factory.getTrustManagers()[0]);
        } catch (GeneralSecurityException | IOException e) {
            throw Pem.error(setting, file, "cannot be used as trusted CAs: " + e);
        }
    }

    private X509ExtendedTrustManager delegate() {
        return files.get().delegate();
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate().checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        delegate().checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        delegate().checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate().checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        delegate().checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        delegate().checkServerTrusted(chain, authType, engine);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return delegate().getAcceptedIssuers();
    }
}
