package dev.strata.testkit;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A throwaway certificate authority for TLS tests: issues certificates for 127.0.0.1 and
 * localhost and writes them, with their keys, as the PEM files servers and clients read.
 * Certificates carry no extended key usage, so one serves a server and a client alike. Shared
 * with the server's and the cluster tests through the client's test jar. Thread-safe.
 */
public final class TestCertificates {
    private static final AtomicLong SERIALS = new AtomicLong(1);

    private final Path dir;
    private final String name;
    private final KeyPair caKeys;
    private final X509CertificateHolder caCertificate;

    /** A new CA called {@code name}, its certificate written to {@code dir/name-ca.pem}. */
    public TestCertificates(Path dir, String name) {
        this.dir = dir;
        this.name = name;
        this.caKeys = newKeys();
        this.caCertificate = certificate(caName(), serial(), caKeys.getPublic(), Extension.basicConstraints,
                new BasicConstraints(true));
        writePem(caFile(), "CERTIFICATE", encoded(caCertificate));
    }

    public Path caFile() {
        return dir.resolve(name + "-ca.pem");
    }

    /**
     * Issues a certificate for {@code commonName}, valid for the IP 127.0.0.1 and the name
     * localhost, with a new key; returns its files, {@code dir/name-commonName.pem} and
     * {@code dir/name-commonName-key.pem}. Issuing for the same name again overwrites them (the
     * certificate first, then the key), as an operator rotating a certificate in place does.
     */
    public Issued issue(String commonName) {
        KeyPair keys = newKeys();
        BigInteger serial = serial();
        X509CertificateHolder cert = certificate(new X500Name("CN=" + commonName), serial, keys.getPublic(),
                Extension.subjectAlternativeName, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
        Issued issued = new Issued(dir.resolve(name + "-" + commonName + ".pem"),
                dir.resolve(name + "-" + commonName + "-key.pem"), serial);
        writePem(issued.certificate(), "CERTIFICATE", encoded(cert));
        writePem(issued.privateKey(), "PRIVATE KEY", keys.getPrivate().getEncoded());
        return issued;
    }

    /**
     * A certificate and its PKCS#8 private key, as PEM files.
     *
     * @param serial the certificate's serial number, unique in this JVM
     */
    public record Issued(Path certificate, Path privateKey, BigInteger serial) {}

    private X500Name caName() {
        return new X500Name("CN=" + name + " test CA");
    }

    /** A certificate for {@code subject}'s {@code key}, with one extension, signed by this CA. */
    private X509CertificateHolder certificate(X500Name subject, BigInteger serial, PublicKey key,
                                              ASN1ObjectIdentifier extension, ASN1Encodable value) {
        try {
            ContentSigner signer = new JcaContentSignerBuilder("SHA256withRSA").build(caKeys.getPrivate());
            return new JcaX509v3CertificateBuilder(caName(), serial, notBefore(), notAfter(), subject, key)
                    .addExtension(extension, extension.equals(Extension.basicConstraints), value)
                    .build(signer);
        } catch (OperatorCreationException | CertIOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair newKeys() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIALS.getAndIncrement());
    }

    private static Date notBefore() {
        return Date.from(Instant.now().minus(Duration.ofHours(1)));
    }

    private static Date notAfter() {
        return Date.from(Instant.now().plus(Duration.ofDays(1)));
    }

    private static byte[] encoded(X509CertificateHolder cert) {
        try {
            return cert.getEncoded();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writePem(Path file, String type, byte[] der) {
        String pem = "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
        try {
            Files.writeString(file, pem, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
