package dev.strata.server.tls;

import dev.strata.server.config.ServerConfig;
import dev.strata.testkit.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/** The checks a node runs on its TLS files at start: every failure names the key, the file and what is wrong. */
class PemFilesTest {
    @TempDir
    Path dir;

    private CertifiedKey load(TestCertificates.Issued issued) {
        return CertifiedKey.load(issued.certificate(), "strata.tls.cert-file", issued.privateKey(), "strata.tls.key-file");
    }

    @Test
    void aCertificateAndItsKeyLoad() {
        TestCertificates.Issued node = new TestCertificates(dir, "cluster").issue("node1");
        CertifiedKey k = load(node);
        assertThat(k.leaf().getSerialNumber()).isEqualTo(node.serial());
        assertThat(k.describe()).contains("serial " + node.serial().toString(16)).contains("CN=node1");
    }

    @Test
    void aMissingFileIsNamedWithItsKey() {
        Path missing = dir.resolve("nope.pem");
        assertThatThrownBy(() -> Pem.certificates(missing, "strata.tls.cert-file"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strata.tls.cert-file (" + missing + "): no such file");
    }

    @Test
    void aFileThatCannotBeReadIsNamedWithItsKeyAndWhy() {
        Path key = dir.resolve("key.pem");
        assertThat(Pem.unreadable("strata.tls.key-file", key, new AccessDeniedException(key.toString())))
                .hasMessage("strata.tls.key-file (" + key + "): not readable by this process (permission denied)");
        assertThat(Pem.unreadable("strata.tls.key-file", key, new NoSuchFileException(key.toString())))
                .hasMessage("strata.tls.key-file (" + key + "): no such file");
        assertThat(Pem.unreadable("strata.tls.key-file", key, new IOException("Input/output error")))
                .hasMessage("strata.tls.key-file (" + key + "): cannot be read: java.io.IOException: Input/output error");
    }

    /** The same through a real file's permissions, where they bind (root reads every file). */
    @Test
    void anUnreadableFileIsNamedWithItsKey() throws Exception {
        assumeThat(System.getProperty("user.name")).as("root reads every file").isNotEqualTo("root");
        TestCertificates.Issued node = new TestCertificates(dir, "cluster").issue("node1");
        Files.setPosixFilePermissions(node.privateKey(), PosixFilePermissions.fromString("---------"));
        assertThatThrownBy(() -> load(node)).hasMessage("strata.tls.key-file (" + node.privateKey()
                + "): not readable by this process (permission denied)");
    }

    @Test
    void aFileThatIsNotPemIsRefused() throws Exception {
        Path der = dir.resolve("cert.der");
        Files.write(der, new byte[] {0x30, (byte) 0x82, 0x01, (byte) 0xff, 0x00});
        assertThatThrownBy(() -> Pem.certificates(der, "strata.tls.peer-cert-file"))
                .hasMessage("strata.tls.peer-cert-file (" + der + "): is not PEM (no -----BEGIN ...----- block)");

        Path garbled = dir.resolve("garbled.pem");
        Files.writeString(garbled, "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n");
        assertThatThrownBy(() -> Pem.certificates(garbled, "strata.tls.cert-file"))
                .hasMessageStartingWith("strata.tls.cert-file (" + garbled + "): certificate 1 does not parse");
    }

    @Test
    void swappedCertificateAndKeyFilesAreCalledSo() {
        TestCertificates.Issued node = new TestCertificates(dir, "cluster").issue("node1");
        assertThatThrownBy(() -> CertifiedKey.load(node.privateKey(), "strata.tls.cert-file", node.certificate(), "strata.tls.key-file"))
                .hasMessage("strata.tls.cert-file (" + node.privateKey() + "): holds no PEM CERTIFICATE block (it holds a "
                        + "private key: are the certificate and key files swapped?)");
    }

    @Test
    void aKeyOfAnotherCertificateIsAMismatch() {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        TestCertificates.Issued one = ca.issue("node1");
        TestCertificates.Issued two = ca.issue("node2");
        assertThatThrownBy(() -> CertifiedKey.load(one.certificate(), "strata.tls.peer-cert-file", two.privateKey(),
                "strata.tls.peer-key-file"))
                .hasMessage("strata.tls.peer-key-file (" + two.privateKey() + "): is not the private key of the certificate in "
                        + "strata.tls.peer-cert-file (" + one.certificate() + ", CN=node1)");
    }

    @Test
    void aPkcs1KeyIsRefusedWithTheCommandThatConvertsIt() throws Exception {
        Path rsa = dir.resolve("old-key.pem");
        Files.writeString(rsa, "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n"
                + "-----END RSA PRIVATE KEY-----\n", StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> Pem.privateKey(rsa, "strata.tls.key-file"))
                .hasMessage("strata.tls.key-file (" + rsa + "): holds a PKCS#1 RSA key; convert it to an unencrypted PKCS#8 key "
                        + "with: openssl pkey -in " + rsa + " -out old-key.pem.pkcs8");
    }

    @Test
    void theServerRefusesToStartOnABadFileBeforeOpeningAnything() {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        TestCertificates.Issued node = ca.issue("node1");
        Path missingCa = dir.resolve("missing-ca.pem");
        ServerConfig c = ServerConfig.resolve(Map.of("strata.tls.cert-file", node.certificate().toString(),
                "strata.tls.key-file", node.privateKey().toString(), "strata.tls.peer-cert-file", node.certificate().toString(),
                "strata.tls.peer-key-file", node.privateKey().toString(), "strata.tls.peer-trusted-ca-file", missingCa.toString()));
        assertThatThrownBy(() -> ServerTls.load(c.tls()))
                .hasMessage("strata.tls.peer-trusted-ca-file (" + missingCa + "): no such file");
    }
}
