package dev.strata.cli;

import dev.strata.client.CheckpointInfo;
import dev.strata.client.StrataClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code strata checkpoint}: has a node take a checkpoint now. The backups ({@code checkpoint save},
 * {@code checkpoint restore}) are its subcommands.
 */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
        subcommands = {CheckpointSaveCommand.class, CheckpointRestoreCommand.class},
        description = {"Has the first endpoint that answers take a checkpoint now: it flushes its engine, records the "
                + "checkpoint that followers and new nodes catch up from, and lets Raft purge the log before it."})
public final class CheckpointCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (StrataClient c = client.connect()) {
            CheckpointInfo info = c.checkpoint();
            PrintWriter out = spec.commandLine().getOut();
            if (client.json()) {
                Json.print(out, Json.object().put("member_id", info.memberId()).put("raft_term", info.term())
                        .put("index", info.index()));
            } else {
                out.printf("node %d took a checkpoint at log index %d (term %d)%n", info.memberId(), info.index(),
                        info.term());
            }
        }
        return ExitCode.OK;
    }
}
