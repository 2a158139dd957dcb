package dev.strata.server.tls;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A certificate chain and the private key of its first certificate, read from PEM files and
 * checked to belong together.
 *
 * @param chain the leaf certificate first, then any intermediates
 * @param key   the leaf's private key
 */
record CertifiedKey(List<X509Certificate> chain, PrivateKey key) {
    private static final byte[] PROBE = "strata: does this key match the certificate?".getBytes(StandardCharsets.US_ASCII);

    CertifiedKey {
        chain = List.copyOf(chain);
    }

    X509Certificate leaf() {
        return chain.get(0);
    }

    /**
     * Reads a certificate chain and its key.
     *
     * @param certSetting the key that named {@code certFile}, for messages; likewise {@code keySetting}
     * @throws IllegalArgumentException when a file cannot be read or parsed, or the key is not
     *         the certificate's, naming both settings and files
     */
    static CertifiedKey load(Path certFile, String certSetting, Path keyFile, String keySetting) {
        List<X509Certificate> chain = Pem.certificates(certFile, certSetting);
        PrivateKey key = Pem.privateKey(keyFile, keySetting);
        if (!matches(key, chain.get(0).getPublicKey())) {
            throw Pem.error(keySetting, keyFile, "is not the private key of the certificate in " + certSetting + " ("
                    + certFile + ", " + chain.get(0).getSubjectX500Principal().getName() + ")");
        }
        return new CertifiedKey(chain, key);
    }

    /** Whether {@code key} signs what {@code publicKey} verifies. */
    static boolean matches(PrivateKey key, PublicKey publicKey) {
        String family = family(key.getAlgorithm());
        if (!family.equals(family(publicKey.getAlgorithm()))) {
            return false;
        }
        String signature = switch (family) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "DSA" -> "SHA256withDSA";
            case "EdDSA" -> "EdDSA";
            default -> null;
        };
        if (signature == null) {
            return true; // RSASSA-PSS and the like: the same algorithm is as far as this checks
        }
        try {
            Signature signer = Signature.getInstance(signature);
            signer.initSign(key);
            signer.update(PROBE);
            byte[] signed = signer.sign();
            Signature verifier = Signature.getInstance(signature);
            verifier.initVerify(publicKey);
            verifier.update(PROBE);
            return verifier.verify(signed);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** JDKs name an Ed25519 key "EdDSA" or "Ed25519". */
    private static String family(String algorithm) {
        return algorithm.startsWith("Ed") ? "EdDSA" : algorithm;
    }

    /** Serial, subject and expiry of the leaf, for logs. */
    String describe() {
        X509Certificate c = leaf();
        return "serial " + c.getSerialNumber().toString(16) + ", subject " + c.getSubjectX500Principal().getName()
                + ", valid until " + c.getNotAfter().toInstant();
    }
}
