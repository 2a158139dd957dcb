package dev.strata.cli;

import dev.strata.proto.internal.v1.Plan;
import dev.strata.transfer.Backup;
import io.grpc.ChannelCredentials;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code strata checkpoint save DIR}: a backup, full the first time and incremental after. */
@Command(name = "save", mixinStandardHelpOptions = true,
        description = {"Saves a checkpoint of the cluster into DIR: all of it the first time, then only what DIR lacks "
                + "(the deltas since its last save, or the files of a newer full checkpoint it does not hold)."})
final class CheckpointSaveCommand implements Callable<Integer> {
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
        ChannelCredentials credentials;
        try {
            credentials = tls.channelCredentials();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        Backup.SaveResult r = Backup.save(dir, endpoints, credentials);
        spec.commandLine().getOut().printf("saved %s checkpoint to index %d in %s: %d files, %d bytes received (%d on the wire)%n",
                r.kind() == Plan.Kind.FULL ? "a full" : "an incremental", r.index(), dir,
                r.filesWritten(), r.bytesWritten(), r.transfer().wireBytes());
        return ExitCode.OK;
    }
}
