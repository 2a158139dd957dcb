package dev.strata.cli;

import dev.strata.testkit.SecretServer;
import dev.strata.testkit.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line's etcdctl-style TLS flags against a TLS server that requires client certificates. */
class TlsFlagsTest {
    @TempDir
    Path dir;

    @Test
    void theCommandLineTakesEtcdctlsTlsFlags() throws IOException {
        TestCertificates ca = new TestCertificates(dir, "cluster");
        TestCertificates.Issued app = ca.issue("app");
        try (SecretServer server = new SecretServer(ca.issue("node1"), ca.caFile())) {
            String endpoint = server.endpoint();
            StringWriter out = new StringWriter();
            int code = StrataCommand.commandLine(InputStream.nullInputStream(), false).setOut(new PrintWriter(out, true))
                    .execute("get", "k", "--print-value-only", "--endpoints=" + endpoint, "--cacert=" + ca.caFile(),
                            "--cert=" + app.certificate(), "--key=" + app.privateKey());
            assertThat(code).isEqualTo(ExitCode.OK);
            assertThat(out.toString()).isEqualTo("secret\n");

            assertThat(cli("get", "k", "--endpoints=" + endpoint, "--timeout=1s")).as("plaintext").isEqualTo(ExitCode.FAILED);
            assertThat(cli("get", "k", "--endpoints=" + endpoint, "--cacert=" + ca.caFile(), "--cert=" + app.certificate()))
                    .as("a certificate without its key").isEqualTo(ExitCode.USAGE);
        }
    }

    private static int cli(String... args) {
        return StrataCommand.commandLine(InputStream.nullInputStream(), false)
                .setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(new StringWriter())).execute(args);
    }
}
