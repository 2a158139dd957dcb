package dev.strata.it.history;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code check-history FILE}: runs both checkers over a saved {@link HistoryFile}, to re-check a
 * failed run (say with a larger budget) without running it again.
 */
@Command(name = "check-history", mixinStandardHelpOptions = true,
        description = {"Checks the history FILE of a fault-injection run: linearizability of its writes and "
                + "linearizable reads, and the guarantees of its serializable reads. Prints both reports.",
                "Exit codes: 0 clean, 1 anomalies found, 2 bad usage or unreadable FILE, "
                        + "3 no anomaly but some key undecided (raise --steps-per-key)."})
public final class CheckHistory implements Callable<Integer> {
    /** No anomaly, every key decided. */
    public static final int CLEAN = 0;
    /** A key is not linearizable, or a serializable read broke a guarantee. */
    public static final int ANOMALIES = 1;
    /** The command line was wrong, or FILE is not a readable history file. */
    public static final int USAGE = 2;
    /** No anomaly found, but the search gave up on some key. */
    public static final int UNDECIDED = 3;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "a history file written by the harness")
    Path file;

    @Option(names = "--steps-per-key", paramLabel = "N", defaultValue = "" + SearchBudget.DEFAULT_STEPS_PER_KEY,
            description = "search steps allowed per key before it is reported undecided (default: ${DEFAULT-VALUE})")
    long stepsPerKey;

    @Option(names = "--shrink-steps-per-key", paramLabel = "N", defaultValue = "" + SearchBudget.DEFAULT_SHRINK_STEPS_PER_KEY,
            description = "search steps allowed per key for shrinking a violation (default: ${DEFAULT-VALUE})")
    long shrinkStepsPerKey;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command with {@code args}, printing to {@code out} and {@code err}; returns the exit code. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new CheckHistory()).setOut(out).setErr(err);
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            if (!(e instanceof IOException) && !(e instanceof IllegalArgumentException)) {
                throw e;
            }
            line.getErr().println("check-history: " + e.getMessage());
            line.getErr().flush();
            return USAGE;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() throws IOException {
        SearchBudget budget = new SearchBudget(stepsPerKey, shrinkStepsPerKey);
        RunHistory history = HistoryFile.read(file);
        RunInfo info = history.info();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%s: seed %d, %d nodes, nemeses %s, started %s, ran %s; %d operations, %d fault events%n",
                file, info.seed(), info.nodeCount(), info.nemeses(), info.started(), info.duration(),
                history.operations().size(), info.faultEvents().size());
        LinearizabilityResult linearizability = LinearizabilityChecker.check(history.operations(), budget);
        SerializableReadResult serializable = SerializableReadChecker.check(history.operations());
        out.print(linearizability.report());
        out.print(serializable.report());
        out.flush();
        if (linearizability.verdict() == LinearizabilityResult.Verdict.NOT_LINEARIZABLE || !serializable.clean()) {
            return ANOMALIES;
        }
        return linearizability.linearizable() ? CLEAN : UNDECIDED;
    }
}
