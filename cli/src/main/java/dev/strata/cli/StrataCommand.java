package dev.strata.cli;

import dev.strata.client.OutcomeUnknownException;
import dev.strata.client.StrataException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.InputStream;
import java.util.List;
import java.util.function.Supplier;

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
     * The whole command tree, reading standard input from {@code stdin} ({@code put} without a
     * value, {@code txn}, {@code shell}); the caller may add subcommands before running it.
     *
     * @param terminal whether a person is typing on {@code stdin}, so the shell prompts
     */
    public static CommandLine commandLine(InputStream stdin, boolean terminal) {
        return commandLine(stdin, terminal, null);
    }

    /**
     * The command tree for running {@code args} once: when they start with a subcommand's name,
     * the tree holds that subcommand alone, else every one (for help, and for the suggestions
     * after a mistyped name). Picocli builds the model of every subcommand it is given, which
     * takes a good part of a one-shot command's start-up.
     */
    public static CommandLine commandLineFor(String[] args, InputStream stdin, boolean terminal) {
        return commandLine(stdin, terminal, args.length > 0 ? args[0] : null);
    }

    /** A subcommand by the name its {@code @Command} gives it, made only when the tree holds it. */
    private record Subcommand(String name, Supplier<Object> make) {}

    private static CommandLine commandLine(InputStream stdin, boolean terminal, String only) {
        List<Subcommand> all = List.of(
                new Subcommand("put", () -> new PutCommand(stdin)),
                new Subcommand("get", GetCommand::new),
                new Subcommand("del", DelCommand::new),
                new Subcommand("range", RangeCommand::new),
                new Subcommand("txn", () -> new TxnCommand(stdin)),
                new Subcommand("status", StatusCommand::new),
                new Subcommand("members", MembersCommand::new),
                new Subcommand("member-add", MemberAddCommand::new),
                new Subcommand("member-promote", MemberPromoteCommand::new),
                new Subcommand("member-remove", MemberRemoveCommand::new),
                new Subcommand("member-replace", MemberReplaceCommand::new),
                new Subcommand("transfer-leader", TransferLeaderCommand::new),
                new Subcommand("checkpoint", CheckpointCommand::new),
                new Subcommand("shell", () -> new ShellCommand(stdin, terminal)),
                new Subcommand("bench", BenchCommand::new));
        boolean named = only != null && all.stream().anyMatch(c -> c.name().equals(only));
        CommandLine cli = new CommandLine(new StrataCommand());
        for (Subcommand c : all) {
            if (!named || c.name().equals(only)) {
                cli.addSubcommand(c.make().get());
            }
        }
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
