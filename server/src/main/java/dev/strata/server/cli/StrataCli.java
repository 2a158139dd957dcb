package dev.strata.server.cli;

import dev.strata.client.cli.ClientOptions;
import dev.strata.client.cli.StrataCommand;
import dev.strata.client.cli.TlsOptions;
import dev.strata.transfer.Backup;
import io.grpc.netty.shaded.io.netty.util.internal.logging.InternalLoggerFactory;
import io.grpc.netty.shaded.io.netty.util.internal.logging.JdkLoggerFactory;
import picocli.CommandLine;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.TlsChannelCredentials;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code bin/strata}: the client's command line ({@link StrataCommand}) with the backup commands,
 * which pull checkpoint files and write engine files and so need the server's classes, added
 * under {@code strata checkpoint}.
 */
public final class StrataCli {
    /** gRPC's copy of Netty reads {@code io.netty.jfr.enabled} under its shaded name. */
    private static final String NETTY_JFR_PROPERTY = "io.grpc.netty.shaded.io.netty.jfr.enabled";

    private StrataCli() {}

    public static void main(String[] args) {
        // Netty logs through the JDK's logger, as gRPC itself does, so a one-shot command does not
        // start logback (its XML configuration alone takes about 50 ms) for messages it rarely prints.
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        // Nor does Netty's allocator register its flight-recorder events: the first registration
        // starts JFR's machinery, tens of milliseconds on the first call's path.
        if (System.getProperty(NETTY_JFR_PROPERTY) == null) {
            System.setProperty(NETTY_JFR_PROPERTY, "false");
        }
        System.exit(withBackups(StrataCommand.commandLineFor(args, System.in, System.console() != null)).execute(args));
    }

    /** Runs the command line with no standard input; returns the exit code. */
    public static int run(String... args) {
        return commandLine(InputStream.nullInputStream(), false).execute(args);
    }

    static CommandLine commandLine(InputStream stdin, boolean terminal) {
        return withBackups(StrataCommand.commandLine(stdin, terminal));
    }

    /** Adds {@code checkpoint save} and {@code checkpoint restore} to the tree, when it holds {@code checkpoint}. */
    private static CommandLine withBackups(CommandLine cli) {
        CommandLine checkpoint = cli.getSubcommands().get("checkpoint");
        if (checkpoint != null) {
            checkpoint.addSubcommand(new SaveCommand()).addSubcommand(new RestoreCommand());
        }
        return cli;
    }

    @Command(name = "save", mixinStandardHelpOptions = true,
            description = {"Saves a checkpoint of the cluster into DIR: all of it the first time, then only what DIR lacks "
                    + "(the deltas since its last save, or the files of a newer full checkpoint it does not hold)."})
    static final class SaveCommand implements Callable<Integer> {
        @Parameters(paramLabel = "DIR", description = "the backup directory (created if absent)")
        Path dir;

        @Option(names = "--endpoints", split = ",", paramLabel = "HOST:PORT",
                defaultValue = "${env:STRATA_ENDPOINTS:-" + ClientOptions.DEV_ENDPOINTS + "}",
                description = "client addresses of cluster members, tried in turn (default: $STRATA_ENDPOINTS, else "
                        + "the local dev cluster)")
        List<String> endpoints;

        @Mixin
        TlsOptions tls;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Backup.SaveResult r = Backup.save(dir, endpoints, credentials());
            System.out.printf("saved %s checkpoint to index %d in %s: %d files, %d bytes received (%d on the wire)%n",
                    r.kind() == dev.strata.proto.internal.v1.Plan.Kind.FULL ? "a full" : "an incremental", r.index(), dir,
                    r.filesWritten(), r.bytesWritten(), r.transfer().wireBytes());
            return 0;
        }

        /** Plaintext, or TLS as the --tls, --cacert, --cert and --key flags ask, as the other commands connect. */
        private ChannelCredentials credentials() {
            try {
                tls.check();
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            if (!tls.enabled()) {
                return InsecureChannelCredentials.create();
            }
            TlsChannelCredentials.Builder b = TlsChannelCredentials.newBuilder();
            try {
                if (tls.caCert() != null) {
                    b.trustManager(tls.caCert().toFile());
                }
                if (tls.cert() != null) {
                    b.keyManager(tls.cert().toFile(), tls.key().toFile());
                }
            } catch (IOException | RuntimeException e) {
                throw new ParameterException(spec.commandLine(), "cannot use the TLS files " + tls.caCert() + ", "
                        + tls.cert() + ", " + tls.key() + ": " + e.getMessage(), e);
            }
            return b.build();
        }
    }

    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = {"Seeds a node's data directory from the backup in DIR, verifying every file. The data directory "
                    + "must hold no engine and no Raft log: start the node on it as a new cluster's member, or join it to "
                    + "the cluster as a replacement."})
    static final class RestoreCommand implements Callable<Integer> {
        @Parameters(paramLabel = "DIR", description = "the backup directory")
        Path dir;

        @Option(names = "--data-dir", required = true, description = "the node's strata.data.dir")
        Path dataDir;

        @Override
        public Integer call() throws Exception {
            Backup.RestoreResult r = Backup.restore(dir, dataDir);
            System.out.printf("restored %s to index %d: %d files, %d bytes verified%n", dataDir, r.index(), r.files(), r.bytes());
            return 0;
        }
    }
}
