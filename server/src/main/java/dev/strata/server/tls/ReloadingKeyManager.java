package dev.strata.server.tls;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A key manager serving the certificate and key in two PEM files, re-read when they change
 * (see {@link ReloadingFiles}). Each load gets its own alias; the certificate and key are looked
 * up by the alias chosen at the start of a handshake, so a reload during a handshake cannot pair
 * one load's certificate with another's key. Key-type matching is the JDK's ({@code SunX509}).
 * Thread-safe.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {
    /** Protects the key only inside an in-memory key store. */
    private static final char[] PASSWORD = "strata".toCharArray();

    /** One load: its alias and a JDK key manager holding just it. */
    private record Loaded(String alias, CertifiedKey key, X509ExtendedKeyManager delegate) {}

    private final AtomicLong generations = new AtomicLong();
    private final ReloadingFiles<Loaded> files;

    /**
     * Loads the pair now.
     *
     * @param what the port, for logs ("the client port")
     * @throws IllegalArgumentException naming the setting and file that do not load or match
     */
    ReloadingKeyManager(String what, Path certFile, String certSetting, Path keyFile, String keySetting) {
        this.files = new ReloadingFiles<>(what + "'s certificate (" + certSetting + ", " + keySetting + ")",
                List.of(certFile, keyFile),
                () -> load(CertifiedKey.load(certFile, certSetting, keyFile, keySetting)),
                l -> l.key().describe());
    }

    /** The certificate and key served now. */
    CertifiedKey current() {
        return files.get().key();
    }

    private Loaded load(CertifiedKey key) {
        String alias = "strata-" + generations.incrementAndGet();
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(alias, key.key(), PASSWORD, key.chain().toArray(X509Certificate[]::new));
            KeyManagerFactory factory = KeyManagerFactory.getInstance("SunX509");
            factory.init(store, PASSWORD);
            return new Loaded(alias, key, (X509ExtendedKeyManager) factory.getKeyManagers()[0]);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot hold " + key.describe() + " in a key store: " + e, e);
        }
    }

    /** The load {@code alias} names: the current one, or the one before a reload that raced a handshake. */
    private X509ExtendedKeyManager byAlias(String alias) {
        Loaded now = files.latest();
        if (now.alias().equals(alias)) {
            return now.delegate();
        }
        Loaded before = files.previous();
        return before != null && before.alias().equals(alias) ? before.delegate() : null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return files.get().delegate().getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return files.get().delegate().chooseClientAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return files.get().delegate().chooseEngineClientAlias(keyType, issuers, engine);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return files.get().delegate().getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return files.get().delegate().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return files.get().delegate().chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        X509ExtendedKeyManager m = byAlias(alias);
        return m == null ? null : m.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        X509ExtendedKeyManager m = byAlias(alias);
        return m == null ? null : m.getPrivateKey(alias);
    }
}
