package dev.strata.client.cli;

import dev.strata.client.OutcomeUnknownException;
import dev.strata.client.StrataException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.InputStream;

/**
 * The {@code strata} command line: key-value commands shaped like etcdctl's, cluster
 * administration, an interactive shell and the workload benchmark ({@code bench}), all over the Java SDK.
 * Exit codes are in {@link ExitCode}.
 */
@Command(name = "strata", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Strata's command line. Every command takes --endpoints (default: $STRATA_ENDPOINTS, else the "
                + "local dev cluster), --timeout and -o text|json; 'strata COMMAND --help' tells more.",
                "Exit codes: 0 done, 1 failed, 2 bad usage, 3 key not found (get), 4 outcome unknown (a write whose "
                        + "answer was lost: read before retrying)."})
public final class StrataCommand {
    private StrataCommand() {}

    /**
     * The command tree, reading standard input from {@code stdin} ({@code put} without a value,
     * {@code txn}, {@code shell}); the caller may add subcommands before running it.
     *
     * @param terminal whether a person is typing on {@code stdin}, so the shell prompts
     */
    public static CommandLine commandLine(InputStream stdin, boolean terminal) {
        CommandLine cli = new CommandLine(new StrataCommand())
                .addSubcommand(new PutCommand(stdin))
                .addSubcommand(new GetCommand())
                .addSubcommand(new DelCommand())
                .addSubcommand(new RangeCommand())
                .addSubcommand(new TxnCommand(stdin))
                .addSubcommand(new StatusCommand())
                .addSubcommand(new MembersCommand())
                .addSubcommand(new MemberAddCommand())
                .addSubcommand(new MemberPromoteCommand())
                .addSubcommand(new MemberRemoveCommand())
                .addSubcommand(new TransferLeaderCommand())
                .addSubcommand(new CheckpointCommand())
                .addSubcommand(new ShellCommand(stdin, terminal))
                .addSubcommand(new BenchCommand());
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("strata " + line.getCommandName() + ": " + message(e));
            line.getErr().flush();
            return e instanceof OutcomeUnknownException ? ExitCode.OUTCOME_UNKNOWN : ExitCode.FAILED;
        });
        return cli;
    }

    private static String message(Exception e) {
        if (e instanceof StrataException se) {
            return se.getMessage() + " [" + se.code() + "]";
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }
}
