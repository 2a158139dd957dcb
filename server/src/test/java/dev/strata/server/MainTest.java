package dev.strata.server;

import dev.strata.server.config.ConfigKey;
import dev.strata.server.config.ConfigKeys;
import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MainTest {
    @Test
    void helpListsEveryKeyWithItsFlagEnvironmentVariableAndDefault() {
        StringWriter out = new StringWriter();
        int exit = Main.run(new String[] {"--help"}, Map.of(), new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        assertThat(exit).isZero();
        String help = out.toString().replaceAll("\\s+", " ");
        for (ConfigKey k : ConfigKeys.ALL) {
            assertThat(help).contains(k.flag()).contains(k.name()).contains(k.env())
                    .contains("default: " + (k.defaultValue().isEmpty() ? "(none)" : k.defaultValue()));
        }
    }

    @Test
    void aBadValueExitsWithUsageErrorNamingTheKey() {
        StringWriter err = new StringWriter();
        int exit = Main.run(new String[] {"--client-port", "http"}, Map.of(), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("strata.server.client-port must be an integer");
    }

    @Test
    void anUnknownFlagIsAUsageError() {
        StringWriter err = new StringWriter();
        int exit = Main.run(new String[] {"--no-such-flag"}, Map.of(), new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option: '--no-such-flag'");
    }

    @Test
    void clientCertAuthIsABareFlagAndNeedsATrustedCa() {
        StringWriter err = new StringWriter();
        int exit = Main.run(new String[] {"--cert-file=node.pem", "--key-file=node-key.pem", "--client-cert-auth"}, Map.of(),
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("strata.tls.client-cert-auth needs strata.tls.trusted-ca-file");
    }

    @Test
    void aTlsFileThatCannotBeReadStopsTheStartNamingItsKeyAndFile(@TempDir Path dir) {
        Path missing = dir.resolve("node.pem");
        StringWriter err = new StringWriter();
        int exit = Main.run(new String[] {"--data-dir", dir.resolve("data").toString(), "--cert-file", missing.toString(),
                "--key-file", dir.resolve("node-key.pem").toString()}, Map.of(), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("cannot start: strata.tls.cert-file (" + missing + "): no such file");
        assertThat(dir.resolve("data")).as("nothing opened").doesNotExist();
    }
}
