package dev.strata.server;

import dev.strata.server.config.ConfigKey;
import dev.strata.server.config.ConfigKeys;
import dev.strata.server.config.ConfigLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code strata-server}: runs one node until SIGTERM or SIGINT, then shuts it down gracefully.
 * Every configuration key is also a flag and an environment variable; {@code --help} lists
 * them with their defaults.
 */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {}

    public static void main(String[] args) {
        int exit;
        try {
            exit = run(args, System.getenv(), new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        } catch (Error e) {
            // A half-started server (a missing class, out of memory while opening) has non-daemon
            // Ratis and gRPC threads running: without this exit the process would hang, alive but
            // serving nothing, instead of failing where a supervisor can see it.
            LOG.error("cannot start: {}", e.toString(), e);
            exit = 1;
        }
        System.exit(exit);
    }

    /** Parses, starts and (unless only help was asked for) serves until shutdown; returns the exit code. */
    static int run(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
        CommandSpec spec = spec();
        CommandLine cl = new CommandLine(spec);
        ParseResult parsed;
        try {
            parsed = cl.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            err.println("strata-server: " + e.getMessage());
            err.println("Try strata-server --help.");
            return 2;
        }
        if (cl.isUsageHelpRequested()) {
            cl.usage(out);
            return 0;
        }
        Map<String, String> flags = new LinkedHashMap<>();
        for (ConfigKey k : ConfigKeys.ALL) {
            if (parsed.hasMatchedOption(k.flag())) {
                flags.put(k.name(), parsed.matchedOptionValue(k.flag(), ""));
            }
        }
        String file = parsed.hasMatchedOption("--config") ? parsed.matchedOptionValue("--config", "") : env.get("STRATA_CONFIG");
        ConfigLoader.Loaded loaded;
        try {
            loaded = ConfigLoader.load(file == null || file.isEmpty() ? null : Path.of(file), env, flags);
        } catch (IllegalArgumentException e) {
            err.println("strata-server: " + e.getMessage());
            return 2;
        }
        for (ConfigKey k : ConfigKeys.ALL) {
            LOG.info("config {} = {} ({})", k.name(), loaded.values().get(k.name()), loaded.sources().get(k.name()));
        }
        StrataServer server;
        try {
            server = StrataServer.start(loaded.config());
        } catch (IOException | RuntimeException e) {
            LOG.error("cannot start: {}", e.getMessage(), e);
            err.println("strata-server: cannot start: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            ShutdownWatchdog watchdog = ShutdownWatchdog.start("the stop of node " + server.config().nodeId(),
                    server.longestStop(), () -> Runtime.getRuntime().halt(1));
            server.close();
            watchdog.finished();
            stopped.countDown();
        }, "strata-shutdown"));
        // A node whose Raft server shut down by itself serves nothing: end the process (the
        // shutdown hook closes the rest) so that a supervisor restarts it or an operator sees it.
        server.failed().thenRun(stopped::countDown);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (server.failed().isDone()) {
            err.println("strata-server: the Raft server shut down by itself; see the log. Exiting.");
            return 1;
        }
        return 0;
    }

    /** The command line, built from {@link ConfigKeys} so --help can never miss a key. */
    static CommandSpec spec() {
        CommandSpec spec = CommandSpec.create().name("strata-server");
        spec.usageMessage()
                .sortOptions(false)
                .abbreviateSynopsis(true)
                .width(110)
                .description("Runs one Strata node. Values come from the defaults, then --config FILE (or STRATA_CONFIG), "
                        + "then environment variables, then these flags; the resolved values are logged at start.")
                .footerHeading("%nExample, node 1 of a local three-node cluster:%n")
                .footer("  strata-server --node-id 1 --data-dir data/node1 \\",
                        "    --peers 1=127.0.0.1:7101:7100,2=127.0.0.1:7111:7110,3=127.0.0.1:7121:7120");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help and exit.").build());
        spec.addOption(OptionSpec.builder("--config").paramLabel("FILE").type(String.class)
                .description("A properties file of key=value lines (keys as below). Env: STRATA_CONFIG.").build());
        for (ConfigKey k : ConfigKeys.ALL) {
            OptionSpec.Builder o = OptionSpec.builder(k.flag()).type(String.class)
                    // The default on a line of its own: picocli may wrap a long line at a dot, which would
                    // split a dotted default (the StatefulSet host template) in two.
                    .description(k.description(), "Key " + k.name() + ", env " + k.env() + ",", "default: "
                            + (k.defaultValue().isEmpty() ? "(none)" : k.defaultValue()) + ".");
            if (k == ConfigKeys.JOIN || k == ConfigKeys.CLIENT_CERT_AUTH) {
                o.arity("0..1").fallbackValue("true").paramLabel("BOOL");
            } else {
                o.paramLabel("VALUE");
            }
            spec.addOption(o.build());
        }
        return spec;
    }
}
