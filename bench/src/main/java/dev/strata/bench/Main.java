package dev.strata.bench;

import dev.strata.bench.cluster.VersusEtcdCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** The {@code strata-bench} command: one subcommand per benchmark program. */
@Command(name = "strata-bench",
        description = "Strata benchmarks. They print figures and write JSON; they assert nothing.",
        subcommands = {EngineCommand.class, CompressionCommand.class, VersusEtcdCommand.class,
                CheckpointCommand.class, RecoveryCommand.class})
public final class Main implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT, description = "Show this help and exit.")
    boolean help;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand");
    }

    public static void main(String[] args) {
        int exitCode = new CommandLine(new Main())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args);
        // Exit explicitly: a benchmark must not hang on a non-daemon thread an engine left behind.
        System.exit(exitCode);
    }
}
