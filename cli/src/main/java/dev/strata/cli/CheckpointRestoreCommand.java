package dev.strata.cli;

import dev.strata.transfer.Backup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code strata checkpoint restore DIR --data-dir D}: seeds a node's empty data directory from a backup. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Seeds a node's data directory from the backup in DIR, verifying every file. The data directory "
                + "must hold no engine and no Raft log: start the node on it as a new cluster's member, or join it to "
                + "the cluster as a replacement."})
final class CheckpointRestoreCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "the backup directory")
    Path dir;

    @Option(names = "--data-dir", required = true, description = "the node's strata.data.dir")
    Path dataDir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Backup.RestoreResult r = Backup.restore(dir, dataDir);
        spec.commandLine().getOut().printf("restored %s to index %d: %d files, %d bytes verified%n", dataDir, r.index(),
                r.files(), r.bytes());
        return ExitCode.OK;
    }
}
