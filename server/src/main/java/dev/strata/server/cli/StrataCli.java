package dev.strata.server.cli;

import dev.strata.server.checkpoint.Backup;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code strata}: the operator's command line. Exit codes: 0 done, 1 failed (the message says
 * why), 2 bad usage.
 */
@Command(name = "strata", mixinStandardHelpOptions = true, subcommands = StrataCli.CheckpointCommand.class,
        description = "Strata's command line.")
public final class StrataCli {
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line; returns the exit code. */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new StrataCli());
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("strata: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            return 1;
        });
        return cli.execute(args);
    }

    @Command(name = "checkpoint", mixinStandardHelpOptions = true, description = "Backups: save a checkpoint, restore a node from one.",
            subcommands = {SaveCommand.class, RestoreCommand.class})
    static final class CheckpointCommand {
    }

    @Command(name = "save", mixinStandardHelpOptions = true,
            description = {"Saves a checkpoint of the cluster into DIR: all of it the first time, then only what DIR lacks "
                    + "(the deltas since its last save, or the files of a newer full checkpoint it does not hold)."})
    static final class SaveCommand implements Callable<Integer> {
        @Parameters(paramLabel = "DIR", description = "the backup directory (created if absent)")
        Path dir;

        @Option(names = "--endpoints", split = ",", defaultValue = "127.0.0.1:7100,127.0.0.1:7110,127.0.0.1:7120",
                description = "client addresses of cluster members, tried in turn (default: the local dev cluster)")
        List<String> endpoints;

        @Override
        public Integer call() throws Exception {
            Backup.SaveResult r = Backup.save(dir, endpoints);
            System.out.printf("saved %s checkpoint to index %d in %s: %d files, %d bytes received (%d on the wire)%n",
                    r.kind() == dev.strata.proto.v1.Plan.Kind.FULL ? "a full" : "an incremental", r.index(), dir,
                    r.filesWritten(), r.bytesWritten(), r.transfer().wireBytes());
            return 0;
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
